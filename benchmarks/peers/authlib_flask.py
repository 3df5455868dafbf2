"""Peer 1: Authlib's OAuth 2 client credentials grant on Flask, served by gunicorn (gthread).

    gunicorn --workers 1 --worker-class gthread --threads 16 --pythonpath benchmarks \
        'peers.authlib_flask:create_app()'        # with the same TESSERA_* variables as Tessera

What a team would build instead of Tessera's token endpoint, as Authlib documents it: an
``AuthorizationServer`` with ``query_client`` and ``save_token``, the ``ClientCredentialsGrant``
registered (client secret in the form body or HTTP Basic), a ``ResourceProtector`` with a
``BearerTokenValidator`` guarding the business calls. The client and token models are ours
(``peers/models.py``: SQLAlchemy ORM on Tessera's ``credentials`` and ``access_tokens`` tables, with a
scoped session per request, sync, as Flask apps use it), so tokens are stored as Tessera stores them
(the HMAC digest only) and the suite's tokens work here. Same rules as Tessera where the answer
depends on them: the secret's digest compared in constant time (a dummy client for unknown ids),
the credential and installation usable, scopes within the grant (all of them by default), the
token row and an ``oauth.token.issue`` audit row committed together; denials audited too. Endpoints:
``POST /oauth2/token``, ``GET /api/open/v1/whoami`` and ``GET /api/open/v1/resources/assets/{pid}``
(scope ``assets.read``). No call audit: neither framework has one.
"""

from __future__ import annotations

import os
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector, current_token
from authlib.oauth2.rfc6749 import ClientMixin, TokenMixin, grants
from authlib.oauth2.rfc6749.errors import InvalidClientError
from authlib.oauth2.rfc6750 import BearerTokenValidator
from baseline import rules
from baseline.config import Config, Keys, load
from baseline.rules import NO_DIGEST, new_pid
from flask import Flask, g, jsonify, request
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session, scoped_session, sessionmaker

from peers.models import AccessToken, AuditEntry, Credential, Record, issued_audit


def now() -> datetime:
    return datetime.now(UTC)


class Client(ClientMixin):
    """An OAuth client: a credential of an installation (or a stand-in for an unknown client id)."""

    def __init__(self, keys: Keys, credential: Credential | None, client_id: str) -> None:
        self.keys, self.credential, self.client_id = keys, credential, client_id

    def get_client_id(self) -> str:
        return self.client_id

    def check_client_secret(self, client_secret: str) -> bool:
        """The digest compared in constant time, for unknown clients too; then the credential's state."""
        stored = self.credential.secret_digest if self.credential is not None else NO_DIGEST
        matches = self.keys.matches(client_secret, stored)
        return matches and self.credential is not None and self.credential.usable(now())

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return endpoint == "token" and method in ("client_secret_post", "client_secret_basic")

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type == "client_credentials"

    def get_allowed_scope(self, scope: str | None) -> str | None:
        """All granted scopes by default; a requested subset; None (invalid_scope) beyond the grant."""
        assert self.credential is not None
        granted = set(self.credential.installation.scopes)
        wanted = set(scope.split()) if scope and scope.strip() else granted
        return " ".join(sorted(wanted)) if wanted <= granted else None


class Token(TokenMixin):
    """A stored access token, with what makes it valid."""

    def __init__(self, row: AccessToken) -> None:
        self.row = row

    def check_client(self, client: Client) -> bool:
        return self.row.credential.client_id == client.get_client_id()

    def get_scope(self) -> str:
        return " ".join(self.row.granted())

    def get_expires_in(self) -> int:
        return int((self.row.expires_at - self.row.issued_at).total_seconds())

    def is_expired(self) -> bool:
        return now() >= self.row.expires_at

    def is_revoked(self) -> bool:
        return not self.row.alive(now())


class DigestTokenValidator(BearerTokenValidator):
    """Finds a bearer token by its HMAC digest, with its credential, installation, application and tenant."""

    def __init__(self, keys: Keys, sessions: scoped_session[Session]) -> None:
        super().__init__()
        self.keys, self.sessions = keys, sessions

    def authenticate_token(self, token_string: str) -> Token | None:
        if not token_string or len(token_string) > 512:
            return None
        row = self.sessions.scalars(select(AccessToken).where(
            AccessToken.token_digest == self.keys.digest(token_string))).first()
        return None if row is None else Token(row)


class ClientCredentialsGrant(grants.ClientCredentialsGrant):
    """The grant, accepting the client secret in the form body as well as in HTTP Basic."""

    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]


class TokenServer(AuthorizationServer):
    """Authlib's server, with Tessera's audit of refused client authentications."""

    def __init__(self, app: Flask, config: Config, keys: Keys, sessions: scoped_session[Session]) -> None:
        self.keys, self.sessions, self.ttl = keys, sessions, config.token_ttl_seconds
        app.config |= {"OAUTH2_TOKEN_EXPIRES_IN": {"client_credentials": self.ttl},
                       "OAUTH2_ACCESS_TOKEN_GENERATOR": lambda **_: "tat_" + secrets.token_urlsafe(32)}
        super().__init__(app, query_client=self.find_client, save_token=self.store_token)
        self.register_grant(ClientCredentialsGrant)

    def find_client(self, client_id: str) -> Client | None:
        if not client_id or len(client_id) > 512:
            return None
        credential = self.sessions.scalars(select(Credential).where(Credential.client_id == client_id)).first()
        return Client(self.keys, credential, client_id)

    def store_token(self, token: dict[str, Any], oauth_request: Any) -> None:
        """The token's digest and its audit entry, in one transaction."""
        client: Client = oauth_request.client
        credential, at = client.credential, now()
        assert credential is not None
        scopes = token["scope"].split()
        self.sessions.add(AccessToken(token_digest=self.keys.digest(token["access_token"]), credential_id=credential.id,
                                      installation_id=credential.installation_id, scopes=scopes, issued_at=at,
                                      expires_at=at + timedelta(seconds=token["expires_in"])))
        self.sessions.add(issued_audit(new_pid("aud"), credential, scopes, g.request_id, at))
        self.sessions.commit()

    def handle_error_response(self, oauth_request: Any, error: Any) -> Any:
        if isinstance(error, InvalidClientError):
            client_id = request.form.get("client_id") or (request.authorization.username if request.authorization
                                                          else None)
            credential = self.sessions.scalars(select(Credential).where(Credential.client_id == client_id)).first() \
                if client_id else None
            inst = credential.installation if credential else None
            self.sessions.add(AuditEntry(pid=new_pid("aud"), tenant_id=inst.tenant_id if inst else None,
                                         actor_user_id=None, actor=client_id, action="oauth.token.denied",
                                         target_type="credential", target_id=client_id, before=None, after=None,
                                         request_id=g.request_id, application_id=inst.application_id if inst else None,
                                         created_at=now()))
            self.sessions.commit()
        return super().handle_error_response(oauth_request, error)


def engine_for(config: Config, threads: int) -> Any:
    """A sync engine whose pool holds one connection per gunicorn thread."""
    if config.dialect == "postgresql":
        return create_engine("postgresql+psycopg://" + config.dsn.split("://", 1)[1], pool_size=threads,
                             max_overflow=0)
    return create_engine(f"sqlite:///{config.dsn}", connect_args={"timeout": 30, "check_same_thread": False},
                         pool_size=threads, max_overflow=0)


def create_app() -> Flask:
    """The Flask app (gunicorn calls this in its worker, after the fork)."""
    config, app = load(), Flask(__name__)
    keys = Keys(config.secret_key)
    # PEER_THREADS: gunicorn's --threads, set beside it by the harness (harness.servers.authlib_peer).
    sessions = scoped_session(sessionmaker(engine_for(config, int(os.environ.get("PEER_THREADS", "16")))))
    server = TokenServer(app, config, keys, sessions)
    require_oauth = ResourceProtector()
    require_oauth.register_token_validator(DigestTokenValidator(keys, sessions))

    @app.before_request
    def request_id() -> None:
        g.request_id = rules.request_id(request.headers.get("x-request-id"))

    @app.teardown_appcontext
    def end_session(_exc: BaseException | None) -> None:
        sessions.remove()

    @app.get("/api/health")
    def health() -> Any:
        return jsonify(code="0", message="OK", data={"status": "up"})

    @app.post("/oauth2/token")
    def issue_token() -> Any:
        return server.create_token_response()

    @app.get("/api/open/v1/whoami")
    @require_oauth()
    def whoami() -> Any:
        return jsonify(current_token.row.whoami())

    @app.get("/api/open/v1/resources/assets/<pid>")
    @require_oauth("assets.read")
    def read_asset(pid: str) -> Any:
        tenant_id = current_token.row.installation.tenant_id
        record = sessions.scalars(select(Record).where(Record.tenant_id == tenant_id, Record.model == "asset",
                                                       Record.pid == pid, Record.deleted_at.is_(None))).first()
        if record is None:
            return jsonify(error="resource_not_found"), 404
        response = jsonify(record.asset())
        response.headers["ETag"] = record.etag
        return response

    return app
