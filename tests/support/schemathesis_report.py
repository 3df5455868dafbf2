"""Reading a Schemathesis CLI report: its failure blocks, and which of them are only the refusals
no OpenAPI schema can state (used by the plain and the aimed conformance runs)."""

from __future__ import annotations

import json
import re

# The rules the session document cannot state, because they depend on more than the request's
# shape; each is refused with 400 VALIDATION_ERROR naming the field. Exactly these refusals, on
# exactly these operations, are tolerated; every other failure fails the run.
# - a public key whose material is not a key of its type (no point on P-256, no RSA modulus of
#   2048 bits): `publicJwk` / `jwks` of the two operations that register keys;
# - a webhook URL whose host does not resolve, or resolves to an address that may not receive
#   webhooks (SSRF rules, which depend on DNS and the deployment's settings): `url`;
# - event types whose resources the installation has no read scope for (its grants, not the
#   request): `eventTypes`.
CREDENTIALS = ("POST /api/open-platform/installations/{installationId}/credentials",
               "POST /api/open-platform/credentials/{clientId}/rotate")
ENDPOINTS = ("POST /api/open-platform/installations/{installationId}/webhook-endpoints",
             "PUT /api/open-platform/webhook-endpoints/{endpointId}")
INEXPRESSIBLE = {
    "session": {**dict.fromkeys(CREDENTIALS, frozenset({"publicJwk", "jwks"})),
                **dict.fromkeys(ENDPOINTS, frozenset({"url", "eventTypes"}))},
}
FAILURE_HEADER = re.compile(r"^_{3,} (?P<title>.+?) _{3,}$", re.MULTILINE)
ANSWER = re.compile(r"^\[(?P<status>\d{3})\] .*?:\n\n\s*`(?P<body>.*)`$", re.MULTILINE)
CURL = re.compile(r"curl -X (?P<method>[A-Z]+) (?P<rest>.*)")
TARGET = re.compile(r"https?://[^/\s'\"]+(?P<path>/[^'?\s\"]*)")


def failures(report: str) -> list[tuple[str, str]]:
    """(title, text) of each failure block of the report's FAILURES section."""
    return _blocks(report, "= FAILURES =")


def errors_in(report: str) -> list[tuple[str, str]]:
    """(title, text) of each block of the report's ERRORS section (a hook, the network, a crash):
    a run with one did not send what it meant to, whatever its failures say."""
    return _blocks(report, "= ERRORS =")


def _blocks(report: str, heading: str) -> list[tuple[str, str]]:
    start = report.find(heading)
    if start < 0:
        return []
    ends = [end for name in ("= FAILURES =", "= WARNINGS =", "= SUMMARY =")
            if name != heading and (end := report.find(name, start)) > start]
    section = report[start:min(ends) if ends else len(report)]
    marks = list(FAILURE_HEADER.finditer(section))
    return [(m["title"], section[m.end():marks[i + 1].start() if i + 1 < len(marks) else len(section)])
            for i, m in enumerate(marks)]


def _operation(method: str, path: str, operations: dict[str, frozenset[str]]) -> str | None:
    """The tolerated operation a concrete request path is one of, if any."""
    for operation in operations:
        op_method, template = operation.split(" ", 1)
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        if op_method == method and re.fullmatch(pattern, path):
            return operation
    return None


def inexpressible(document: str, block: tuple[str, str]) -> bool:
    """Whether a failure is only refusals of the rules above: ST202, each answer a 400 whose
    field errors name only the fields tolerated on the operation it was sent to."""
    operations = INEXPRESSIBLE.get(document, {})
    title, text = block
    if set(re.findall(r"^- (ST\d+) ", text, re.MULTILINE)) != {"ST202"}:
        return False
    cases = [case for case in re.split(r"\n\s*\d+\. Test Case ID", text)[1:] if ANSWER.search(case)]
    if not cases:
        return False
    for case in cases:  # in a stateful sequence, the last request of each case is the refused one
        curls = list(CURL.finditer(case))
        urls = list(TARGET.finditer(curls[-1]["rest"])) if curls else []  # the request's URL comes last
        target = title if title in operations else (
            _operation(curls[-1]["method"], urls[-1]["path"], operations) if urls else None)
        if target is None or target not in operations:
            return False
        for answer in ANSWER.finditer(case):
            try:
                body = json.loads(answer["body"])
            except ValueError:
                return False
            fields = set((body.get("data") or {}).get("fieldErrors") or {})
            if answer["status"] != "400" or not fields or not fields <= operations[target]:
                return False
    return True
