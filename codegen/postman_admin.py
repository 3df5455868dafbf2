"""The session collection's second half: what a tenant administrator does after reading (see ``postman``).

``postman_steps.session`` signs in, lists and reads every page, and creates, changes and deletes a record of
each model. This plans the rest of the session document, so that a QA team's ``newman run`` covers every
operation once, in the folder ``administration``: in the document's order, except that the operations that
end something (a ``DELETE``, a revocation) come last, the latest in the document first, so that an endpoint
is deleted before its application. Ids come from what the collection created: the document's links from an
operation that creates (a ``POST``); a path parameter no link fills takes the last created one of that name.
A list's first record is never used: the list may be empty. An operation whose id nothing in the collection
creates (a delivery to replay, a parked run to retry) is sent with the document's example id and must answer
its documented 404 in the envelope. Two values come from the environment (``ENVIRONMENT``): the user to add
as a member (``memberEmail``) and the webhook receiver (``webhookUrl``).
"""

from __future__ import annotations

from typing import Any

from codegen.postman_steps import (
    Step,
    apply_link,
    bind_value,
    json_example,
    operations,
    path_params,
    plan_step,
    request_content,
    resolve,
)

FOLDER = "administration"
# What the environment gives the administration steps, for what a document example cannot: a user of the
# tenant to add to an application (by email), and a webhook receiver whose host resolves (and, on a
# server that refuses loopback targets, is not loopback).
ENVIRONMENT = {"memberEmail": "a user of the tenant to add as a member",
               "webhookUrl": "where the webhook endpoint the collection registers sends"}
# Operations that end what the collection made: they run last (a revocation is a POST of its own).
ENDING_SUFFIXES = ("/revoke",)


def _ends(path: str, method: str) -> bool:
    return method == "delete" or (method == "post" and path.endswith(ENDING_SUFFIXES))


def administration(doc: dict[str, Any], covered: set[tuple[str, str]]) -> list[Step]:
    """Every operation not in ``covered`` (``(path, method)``), ordered and bound as the module says."""
    plan = [plan_step(doc, path, method, "session") for path, method in _ordered(doc, covered)]
    by_id = {step.operation.get("operationId"): step for step in plan}
    created: dict[str, tuple[Step, str]] = {}  # path parameter -> the last step that created one, and where
    for index, step in enumerate(plan):
        step.folder = FOLDER
        _bind_unlinked(step, created)
        _from_environment(step)
        if step.method == "post" and not step.path.endswith("/query"):  # a query form reads a list
            _link_later(doc, plan[index:], by_id, created)
    return [step for step in (_or_unknown(step) for step in plan) if step is not None]


def _ordered(doc: dict[str, Any], covered: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """The operations not covered, in the document's order, those that end something last and reversed."""
    rest = [(path, method) for path, method, _, _ in operations(doc) if (path, method) not in covered]
    return [pm for pm in rest if not _ends(*pm)] + [pm for pm in reversed(rest) if _ends(*pm)]


def _link_later(doc: dict[str, Any], plan: list[Step], by_id: dict[Any, Step],
                created: dict[str, tuple[Step, str]]) -> None:
    """Bind what the links of ``plan[0]``'s answers give into the steps after it, and remember what it created."""
    step = plan[0]
    for answer in step.operation.get("responses", {}).values():
        for link in (resolve(doc, answer).get("links") or {}).values():
            target = by_id.get(link.get("operationId"))
            if target is not None and any(target is later for later in plan[1:]):
                apply_link(step, target, resolve(doc, link))
                _remember(step, resolve(doc, link), created)


def _from_environment(step: Step) -> None:
    """A JSON body's ``url`` is ``{{webhookUrl}}``; a user named by ``userPid`` is named by ``{{memberEmail}}``."""
    if "application/json" not in request_content(step):
        return
    body = json_example(step)
    if not isinstance(body, dict):
        return
    if "url" in body:
        step.values[("body", "url")] = "{{webhookUrl}}"
    if "userPid" in body:
        step.body = {**{k: v for k, v in body.items() if k != "userPid"}, "email": "{{memberEmail}}"}


def _remember(source: Step, link: dict[str, Any], created: dict[str, tuple[Step, str]]) -> None:
    for given, expression in (link.get("parameters") or {}).items():
        name = given.rpartition(".")[2]
        if str(expression).startswith("$response."):
            created[name] = (source, str(expression))


def _bind_unlinked(step: Step, created: dict[str, tuple[Step, str]]) -> None:
    """Path parameters no link has filled take the last created one of that name."""
    for name in path_params(step.path):
        if ("path", name) not in step.values and name in created:
            source, expression = created[name]
            bind_value(source, step, "path", name, expression)


def _or_unknown(step: Step) -> Step | None:
    """``step`` when every path parameter is given; else, where it documents a 404, the same request with the
    document's example id, expecting that 404 (``None`` where it documents none)."""
    missing = [name for name in path_params(step.path) if ("path", name) not in step.values]
    if not missing:
        return step
    if "404" not in step.operation.get("responses", {}):
        return None
    step.status = 404
    step.name = f"{step.name}: nothing here creates a {missing[-1]}, so an unknown one answers 404"
    return step
