"""Client secrets, access tokens and their keyed digests.

Secrets are 256-bit random values with a readable prefix (secret scanners can spot a leaked
``tsec_`` or ``tat_`` string). Only HMAC-SHA-256 digests under a server key are stored: with 256
bits of entropy a fast keyed hash is as strong as a slow KDF against guessing, and it keeps the
token endpoint fast. Comparisons are constant-time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets as _secrets

from cryptography.fernet import Fernet

from tessera.core.crypto import derive_key

CLIENT_SECRET_PREFIX = "tsec_"  # noqa: S105 - a prefix, not a secret
ACCESS_TOKEN_PREFIX = "tat_"  # noqa: S105 - a prefix, not a secret
CLIENT_ID_PREFIX = "tcli_"


class SecretDigests:
    def __init__(self, secret_key: bytes) -> None:
        self._key = derive_key(secret_key, "secret-digest")

    def digest(self, value: str) -> str:
        return hmac.new(self._key, value.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def matches(self, value: str, stored_digest: str) -> bool:
        return hmac.compare_digest(self.digest(value), stored_digest)


def new_client_secret() -> str:
    return CLIENT_SECRET_PREFIX + _secrets.token_urlsafe(32)


def new_access_token() -> str:
    return ACCESS_TOKEN_PREFIX + _secrets.token_urlsafe(32)


def new_client_id() -> str:
    return CLIENT_ID_PREFIX + _secrets.token_hex(12)


WEBHOOK_SECRET_PREFIX = "whsec_"  # noqa: S105 - a prefix, not a secret


def new_webhook_secret() -> str:
    return WEBHOOK_SECRET_PREFIX + _secrets.token_urlsafe(32)


class SealedSecrets:
    """Webhook signing secrets at rest: encrypted and authenticated (Fernet), never hashed.

    The service signs every delivery with the secret itself, so a one-way digest can't work; the
    key is derived from the server key for this purpose only, and the plain secret leaves the
    service exactly once, in the response that creates or rotates it.
    """

    def __init__(self, secret_key: bytes) -> None:
        self._fernet = Fernet(base64.urlsafe_b64encode(derive_key(secret_key, "webhook-secret")))

    def seal(self, secret: str) -> str:
        return self._fernet.encrypt(secret.encode()).decode("ascii")

    def open(self, sealed: str) -> str:
        return self._fernet.decrypt(sealed.encode("ascii")).decode()
