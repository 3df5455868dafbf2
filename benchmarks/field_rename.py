"""How long ``tessera migrate`` takes to move a renamed field, and what ``migrate --plan`` says first.

    .venv/bin/python benchmarks/field_rename.py [--backend postgresql|sqlite] [--records 1000000]
        [--results-file benchmarks/results/field_rename.json]

Per backend (both unless ``--backend``), on a fresh migrated database (``harness.databases.fresh``):

1. ``models.yaml`` plus a ``vendor`` model (name, a unique ``contact``, rating), migrated with
   ``tessera migrate`` (its indexes built), then ``--records`` vendors of one tenant inserted in bulk
   as ``RecordRepository.insert`` writes them (with their unique claims).
2. The same file with ``contact`` renamed ``email`` (``renamedFrom: contact``): ``tessera migrate
   --plan`` (timed; its output printed), then ``tessera migrate`` (timed; its output printed).
3. Checked by SQL: every record holds ``email`` and no ``contact``, every unique claim is ``email``'s.

Printed per backend: the plan's seconds and lines, the migrate's seconds and lines, records moved per
second. Exit status 1 when a value was not moved.
"""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml
from harness import cli, log, seeding
from harness.databases import BACKENDS, fresh
from sqlalchemy import insert, text

from storage.schema.tables import tenants
from tessera.registry.models import load_declarations

ROOT = Path(__file__).resolve().parent.parent
TESSERA = ROOT / ".venv" / "bin" / "tessera"
VENDOR: dict[str, Any] = {"label": "Vendor", "fields": {
    "name": {"type": "string", "required": True, "maxLength": 200},
    "contact": {"type": "string", "unique": True, "maxLength": 200},
    "rating": {"type": "integer", "minimum": 0, "maximum": 5},
}}


def _models_file(tmp: Path, renamed: bool) -> Path:
    doc = yaml.safe_load((ROOT / "models.yaml").read_text())
    fields: dict[str, Any] = dict(VENDOR["fields"])
    vendor: dict[str, Any] = {"label": VENDOR["label"], "fields": fields}
    if renamed:
        fields["email"] = {**fields.pop("contact"), "renamedFrom": "contact"}
    doc["models"]["vendor"] = vendor
    path = tmp / ("models-renamed.yaml" if renamed else "models.yaml")
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def _tessera(env: dict[str, str], models: Path, *args: str) -> tuple[float, list[str]]:
    started = time.perf_counter()
    done = subprocess.run([str(TESSERA), *args], env={**env, "TESSERA_MODELS_FILE": str(models)},
                          capture_output=True, text=True, timeout=3600, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"tessera {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    lines = done.stdout.splitlines()
    for line in lines:
        log(f"  | {line}")
    return seconds, lines


def run_backend(backend: str, count: int) -> dict[str, Any]:
    with fresh(backend, "field_rename") as ws:
        before, after = _models_file(ws.tmp, renamed=False), _models_file(ws.tmp, renamed=True)
        model = load_declarations(before).models["vendor"]
        engine = ws.backend.engine()
        try:
            with engine.begin() as conn:
                tenant_id = conn.execute(insert(tenants).values(
                    code="bench", name="Bench", status="active", created_at=datetime.now(UTC)).returning(tenants.c.id)
                ).scalar_one()
            at = datetime.now(UTC)
            seeding.insert_batches(engine, count, lambda i: seeding.record_row(
                tenant_id, model, {"name": f"Vendor {i}", "contact": f"v{i}@example.test", "rating": i % 6}, None, at),
                {"vendor": model}, 20_000)
            seeding.analyze(engine)
            log("tessera migrate (the model before the rename: its indexes, the tenant's roles)")
            _tessera(ws.env, before, "migrate")
            log("tessera migrate --plan")
            plan_seconds, plan_lines = _tessera(ws.env, after, "migrate", "--plan")
            log("tessera migrate")
            move_seconds, move_lines = _tessera(ws.env, after, "migrate")
            with engine.connect() as conn:
                left = conn.execute(text("SELECT count(*) FROM records WHERE model = 'vendor' AND "
                                         + ("jsonb_exists(data, 'contact')" if backend == "postgresql"
                                            else "json_type(data, '$.contact') IS NOT NULL"))).scalar_one()
                claims: dict[str, int] = dict(conn.execute(text("SELECT field, count(*) FROM record_unique_values "
                                                "WHERE model = 'vendor' GROUP BY field")).all())
        finally:
            engine.dispose()
    figures = {"backend": backend, "records": count, "plan_seconds": round(plan_seconds, 1), "plan": plan_lines,
               "migrate_seconds": round(move_seconds, 1), "migrate": move_lines,
               "records_per_second": round(count / move_seconds), "left_under_old_name": left, "claims": claims}
    log(f"{backend}: plan {plan_seconds:.1f} s; migrate {move_seconds:.1f} s "
        f"({count / move_seconds:,.0f} records/s); left under the old name: {left}; unique claims: {claims}")
    return figures


def main() -> int:
    args = (cli.Arguments(__doc__, "field_rename").backend(default=None)
            .records(1_000_000, 1, what="vendors to seed")).parse()
    started = time.perf_counter()
    runs = [run_backend(backend, args.records) for backend in ([args.backend] if args.backend else BACKENDS)]
    failures = [f"{run['backend']}: {run['left_under_old_name']} record(s) left under the old name, claims "
                f"{run['claims']}" for run in runs if run["left_under_old_name"] or set(run["claims"]) != {"email"}]
    lines = [f"{run['backend']:<11} {run['records']:>9,} records: plan {run['plan_seconds']:.1f} s, migrate "
             f"{run['migrate_seconds']:.1f} s ({run['records_per_second']:,} records/s)" for run in runs]
    return cli.conclude(args, {"runs": runs}, lines, failures, started)

if __name__ == "__main__":
    sys.exit(main())
