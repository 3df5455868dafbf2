"""The Open Platform's tables, one module each: applications, installations, credentials, tokens
and their refusals, the call audit, command idempotency keys and the events API's pages."""
