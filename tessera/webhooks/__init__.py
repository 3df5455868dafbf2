"""Webhooks: endpoints and their secrets, delivery (fan-out, signing, sending, retries,
dead-letter), replay, SSRF protection, owners' throttles and the receiver's verifier."""
