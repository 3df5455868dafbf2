"""The Open Platform administration surface on the session API (``/api/open-platform/...``)."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params, request_id
from tessera.openplatform.identity import applications, credentials, installations, members
from tessera.registry import catalog
from tessera.web.envelopes import Reply, ok


def getCatalog(**_: Any) -> Reply:
    rt, _actor, headers = authenticated("read")
    return ok(catalog.catalog(rt.capabilities), headers)


def createApplication(body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(applications.create_application(rt, actor, body, request_id()), headers)


def listApplications(**_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(applications.list_applications(rt, actor, query_params()), headers)


def getApplication(appId: str) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(applications.get_application(rt, actor, appId), headers)


def listMembers(appId: str, **_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(members.list_members(rt, actor, appId, query_params()), headers)


def addMember(appId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(members.add_member(rt, actor, appId, body, request_id()), headers)


def changeMember(appId: str, userPid: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(members.change_member(rt, actor, appId, userPid, body["role"], request_id()), headers)


def removeMember(appId: str, userPid: str) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(members.change_member(rt, actor, appId, userPid, None, request_id()), headers)


def createInstallation(appId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(installations.create_installation(rt, actor, appId, body, request_id()), headers)


def listInstallations(appId: str, **_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(installations.list_installations(rt, actor, appId, query_params()), headers)


def getInstallation(installationId: str) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(installations.get_installation(rt, actor, installationId), headers)


def updateInstallation(installationId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(installations.update_installation(rt, actor, installationId, body, request_id()), headers)


def createCredential(installationId: str) -> Reply:
    rt, actor, headers = authenticated("write")
    data = credentials.create_credential(rt, actor, installationId, request_id())
    return ok(data, {**headers, "Cache-Control": "no-store"})


def listCredentials(installationId: str, **_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(credentials.list_credentials(rt, actor, installationId, query_params()), headers)


def rotateCredential(clientId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    data = credentials.rotate_credential(rt, actor, clientId, int(body["graceSeconds"]), request_id())
    return ok(data, {**headers, "Cache-Control": "no-store"})


def revokeCredential(clientId: str) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(credentials.revoke_credential(rt, actor, clientId, request_id()), headers)
