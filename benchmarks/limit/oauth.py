"""``POST /oauth2/token`` on the limit: the baseline's client credentials grant (``baseline.grants``), read
from and answered with ``limit.web``: the credential read, then the token and its audit row in one
statement.
"""

from __future__ import annotations

from typing import Any

from baseline import grants, refusals, rules
from baseline.config import Config, Keys
from baseline.refusals import NO_STORE, Refusal

from limit.store import Store
from limit.web import Reply, Request, json_reply


class TokenEndpoint:
    def __init__(self, store: Store, keys: Keys, config: Config) -> None:
        self.store, self.keys, self.ttl = store, keys, config.token_ttl_seconds

    async def __call__(self, request: Request) -> Reply:
        request_id = rules.request_id(request.header("x-request-id"))
        try:
            body = await self._issue(request, request_id)
        except Refusal as refusal:
            return json_reply(*refusals.open_envelope(refusal, request_id, oauth=True))
        return json_reply(200, body, {**NO_STORE, "X-Request-Id": request_id})

    async def _issue(self, request: Request, request_id: str) -> dict[str, Any]:
        asked = grants.client(request.query(), request.form(), request.header("authorization"))
        return await grants.issue(self.store, self.keys, self.ttl, asked, request_id)
