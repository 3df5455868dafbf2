"""The Open Platform administration surface on the session API (``/api/open-platform/...``)."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params, request_id
from tessera.openplatform.identity import applications, credentials, installations, members
from tessera.registry import catalog
from tessera.web.envelopes import Reply, ok


async def getCatalog(**_: Any) -> Reply:
    rt, _actor, headers = await authenticated("read")
    return ok(catalog.catalog(rt.capabilities), headers)


async def createApplication(body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await applications.create_application(rt, actor, body, request_id()), headers)


async def listApplications() -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await applications.list_applications(rt, actor, query_params()), headers)


async def getApplication(appId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await applications.get_application(rt, actor, appId), headers)


async def updateApplication(appId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await applications.update_application(rt, actor, appId, body, request_id()), headers)


async def deleteApplication(appId: str) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await applications.delete_application(rt, actor, appId, request_id()), headers)


async def listMembers(appId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await members.list_members(rt, actor, appId, query_params()), headers)


async def addMember(appId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await members.add_member(rt, actor, appId, body, request_id()), headers)


async def changeMember(appId: str, userPid: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await members.change_member(rt, actor, appId, userPid, body["role"], request_id()), headers)


async def removeMember(appId: str, userPid: str) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await members.change_member(rt, actor, appId, userPid, None, request_id()), headers)


async def createInstallation(appId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await installations.create_installation(rt, actor, appId, body, request_id()), headers)


async def listInstallations(appId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await installations.list_installations(rt, actor, appId, query_params()), headers)


async def getInstallation(installationId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await installations.get_installation(rt, actor, installationId), headers)


async def updateInstallation(installationId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await installations.update_installation(rt, actor, installationId, body, request_id()), headers)


async def createCredential(installationId: str, body: dict[str, Any] | None = None) -> Reply:
    rt, actor, headers = await authenticated("write")
    data = await credentials.create_credential(rt, actor, installationId, request_id(), body)
    return ok(data, {**headers, "Cache-Control": "no-store"})


async def listCredentials(installationId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await credentials.list_credentials(rt, actor, installationId, query_params()), headers)


async def rotateCredential(clientId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    data = await credentials.rotate_credential(rt, actor, clientId, int(body["graceSeconds"]), request_id(), body)
    return ok(data, {**headers, "Cache-Control": "no-store"})


async def revokeCredential(clientId: str) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await credentials.revoke_credential(rt, actor, clientId, request_id()), headers)
