"""The Open Platform's SQL, one module per table or concern: applications, installations, credentials, tokens
and their refusals, the call audit, command idempotency keys and the events API's pages."""
