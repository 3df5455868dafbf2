"""Tenant automations: an external-event trigger and actions with inputs mapped from the event.

An automation fires for every inbound event of its tenant whose source and type match. Its actions
run registry commands (``kind: command``) or session commands (``kind: sessionCommand``), all in
one transaction per run, attributed to ``automation:<id>``. Inputs come from a small declarative
mapping (``mapping.py``), never code. ``admin.py`` is the administration surface; ``runner.py``
is what workers run: a run that fails is retried on ``TESSERA_AUTOMATION_RETRY_SCHEDULE`` and then
parked, listed with its error for an administrator to retry. Nothing is lost.
"""
