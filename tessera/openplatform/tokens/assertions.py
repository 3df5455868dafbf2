"""``private_key_jwt`` client authentication (RFC 7523 section 2.2, RFC 7521 section 4.2).

A credential of kind ``private_key_jwt`` holds a public JWK Set instead of a secret. Its client
authenticates with a JWT it signed (``client_assertion``, with ``client_assertion_type``
``urn:ietf:params:oauth:client-assertion-type:jwt-bearer``) whose claims are ``iss`` = ``sub`` =
the client id, ``aud`` the token endpoint's absolute URL (as the metadata advertises it), ``exp``
at most ``MAX_LIFETIME`` seconds ahead and a ``jti`` that is accepted once: it is kept (a keyed
digest) until the assertion expires. Signatures: RS256 (RSA keys of 2048 bits or more), ES256
(P-256) and EdDSA (Ed25519), each key verifying only its own algorithm. PyJWT checks the
signature, the audience and the issuer; the times are checked here against the runtime's clock.

The keys are checked when registered (``public_jwks``): public members only (a JWK with ``d`` or
any other private member is refused), one of the three key types, ``use`` ``sig`` if given, an
``alg`` if given that matches the key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from storage.drivers.engine import Executor
from storage.openplatform import credentials as credential_store
from storage.openplatform.credentials import CredentialWithInstallationRow
from tessera.core.errors import FieldError, ValidationFailed
from tessera.core.i18n import N_
from tessera.openplatform.identity import hygiene
from tessera.runtime import Runtime

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
ALGORITHMS = ("RS256", "ES256", "EdDSA")  # RFC 8414 token_endpoint_auth_signing_alg_values_supported
MAX_LIFETIME = 300  # seconds an assertion's exp may lie ahead
LEEWAY = 30  # seconds of clock skew tolerated on exp, nbf and the lifetime
MAX_ASSERTION = 8192
MAX_JTI = 256
MAX_KEYS = 5
MIN_RSA_BITS = 2048
# The members a stored public JWK keeps; anything private is refused before this.
_PUBLIC_MEMBERS = ("kty", "crv", "x", "y", "n", "e", "kid", "alg", "use")
_PRIVATE_MEMBERS = frozenset({"d", "p", "q", "dp", "dq", "qi", "oth", "k"})
_ALGORITHM_OF = {("RSA", None): "RS256", ("EC", "P-256"): "ES256", ("OKP", "Ed25519"): "EdDSA"}
_UNSUPPORTED = N_("Only RSA (2048 bits or more), EC P-256 and Ed25519 public keys are accepted.")


def _algorithm(jwk: Mapping[str, Any]) -> str | None:
    kty = jwk.get("kty")
    return _ALGORITHM_OF.get((kty, None if kty == "RSA" else jwk.get("crv")))  # type: ignore[arg-type]


def _check_key(jwk: Any) -> str | None:
    """Why ``jwk`` cannot be registered (a message key), or None."""
    if not isinstance(jwk, dict):
        return N_("Each key must be a JSON Web Key object.")
    if _PRIVATE_MEMBERS & set(jwk):
        return N_("Give the public key only: the JWK contains private key material.")
    alg = _algorithm(jwk)
    if alg is None:
        return _UNSUPPORTED
    return _members_problem(jwk, alg) or _material_problem(jwk, alg)


def _members_problem(jwk: Mapping[str, Any], alg: str) -> str | None:
    """The optional members must fit: ``alg`` the key type's one algorithm, ``use`` signing, and a
    ``kid`` of 1 to 200 characters."""
    if jwk.get("alg") not in (None, alg) or jwk.get("use") not in (None, "sig"):
        return N_("The key's alg or use does not fit a signing key of its type.")
    if "kid" in jwk and (not isinstance(jwk["kid"], str) or not 0 < len(jwk["kid"]) <= 200):
        return N_("kid must be a string of 1 to 200 characters.")
    return None


def _material_problem(jwk: Mapping[str, Any], alg: str) -> str | None:
    """The public members must make a key PyJWT can load for ``alg``, and an RSA key must be
    ``MIN_RSA_BITS`` long at least."""
    try:
        key = jwt.PyJWK({k: jwk[k] for k in _PUBLIC_MEMBERS if k in jwk}, algorithm=alg).key
    except (jwt.PyJWKError, jwt.InvalidKeyError, ValueError, TypeError):
        return N_("The key is not a valid JSON Web Key.")
    if isinstance(key, rsa.RSAPublicKey) and key.key_size < MIN_RSA_BITS:
        return _UNSUPPORTED
    return None


def public_jwks(body: Mapping[str, Any]) -> dict[str, Any]:
    """The JWK Set to store from a registration body with ``publicJwk`` (one key) or ``jwks`` (a
    set); ``VALIDATION_ERROR`` naming the field otherwise."""
    field, keys = _given_keys(body)
    for key in keys:
        problem = _check_key(key)
        if problem is not None:
            raise ValidationFailed({field: FieldError(problem)})
    if len(json.dumps(keys)) > 20_000:
        raise ValidationFailed({field: FieldError(N_("The key set is too large."))})
    return {"keys": [{k: key[k] for k in _PUBLIC_MEMBERS if k in key} for key in keys]}


def _given_keys(body: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """The field the keys were given in and the keys, unchecked: exactly one of ``publicJwk`` (one
    key) and ``jwks`` (an object whose ``keys`` list holds 1 to ``MAX_KEYS``)."""
    if ("publicJwk" in body) == ("jwks" in body):
        raise ValidationFailed({"publicJwk": FieldError(N_("Give publicJwk or jwks, not both."))})
    field = "publicJwk" if "publicJwk" in body else "jwks"
    given = body[field]
    keys = [given] if field == "publicJwk" else (given.get("keys") if isinstance(given, dict) else None)
    if not isinstance(keys, list) or not 0 < len(keys) <= MAX_KEYS:
        raise ValidationFailed({field: FieldError(N_("jwks must hold 1 to {max} keys."), max=MAX_KEYS)})
    return field, keys


def key_summary(jwks: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """What a credential list shows of its keys: type, algorithm and kid."""
    return [{"kty": k["kty"], "alg": _algorithm(k), "kid": k.get("kid")} for k in (jwks or {}).get("keys", [])]


def unverified_issuer(assertion: str) -> str | None:
    """The ``iss`` an assertion claims, unverified (to rate-limit its client before any check)."""
    if len(assertion) > MAX_ASSERTION:
        return None
    try:
        claims = jwt.decode(assertion, options={"verify_signature": False})
    except jwt.PyJWTError:
        return None
    iss = claims.get("iss")
    return iss if isinstance(iss, str) else None


def _verified_claims(cred: CredentialWithInstallationRow, assertion: str,
                     audiences: tuple[str, ...]) -> dict[str, Any] | None:
    """The assertion's claims if one of the credential's keys signed it for one of ``audiences``."""
    try:
        header = jwt.get_unverified_header(assertion)
    except jwt.PyJWTError:
        return None
    alg, kid = header.get("alg"), header.get("kid")
    if alg not in ALGORITHMS:
        return None
    for jwk in (cred.public_jwks or {}).get("keys", []):
        if _algorithm(jwk) != alg or (kid is not None and jwk.get("kid") not in (None, kid)):
            continue
        try:
            return jwt.decode(
                assertion, jwt.PyJWK(jwk, algorithm=alg).key, algorithms=[alg], audience=list(audiences),
                issuer=cred.client_id,
                options={"require": ["iss", "sub", "aud", "exp", "jti"], "verify_exp": False,
                         "verify_iat": False, "verify_nbf": False})
        except jwt.InvalidSignatureError:
            continue  # another key of the set may have signed it
        except jwt.PyJWTError:
            return None
    return None


def _timely(claims: Mapping[str, Any], now: datetime) -> bool:
    exp, nbf = claims.get("exp"), claims.get("nbf", 0)
    if not isinstance(exp, int | float) or not isinstance(nbf, int | float) or isinstance(exp, bool):
        return False
    at = now.timestamp()
    return at < exp + LEEWAY and exp - at <= MAX_LIFETIME + LEEWAY and nbf <= at + LEEWAY


async def accepted(rt: Runtime, conn: Executor, cred: CredentialWithInstallationRow | None, client_id: str,
                   assertion: str, audiences: tuple[str, ...], now: datetime) -> bool:
    """Whether ``assertion`` authenticates the credential row (``credential_with_installation``)
    at ``now``; an accepted assertion's ``jti`` is used up (in ``conn``'s transaction)."""
    if cred is None or cred.kind != credential_store.PRIVATE_KEY_JWT or len(assertion) > MAX_ASSERTION \
            or not hygiene.usable(rt.settings, cred, now):
        return False
    claims = _verified_claims(cred, assertion, audiences)
    if claims is None or claims.get("sub") != client_id or not _timely(claims, now):
        return False
    jti = _jti(claims)
    if jti is None:
        return False
    until = datetime.fromtimestamp(float(claims["exp"]), tz=now.tzinfo) + timedelta(seconds=LEEWAY)
    return await credential_store.claim_jti(conn, rt.digests.digest(f"{client_id}\n{jti}"), until)


def _jti(claims: Mapping[str, Any]) -> str | None:
    """The assertion's ``jti``: 1 to ``MAX_JTI`` characters, or None."""
    jti = claims.get("jti")
    return jti if isinstance(jti, str) and 0 < len(jti) <= MAX_JTI else None
