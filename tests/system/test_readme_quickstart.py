"""The README's integrator quickstart runs verbatim against a fresh demo and does what it says."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.support.live_server import ROOT, free_port, tessera_env, tessera_serve

PASSWORD = "readme-quickstart-password"


def quickstart_script() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- quickstart:begin -->\n```bash\n(.*?)```\n<!-- quickstart:end -->", readme, re.S)
    assert block is not None, "README.md lost its quickstart markers"
    return block.group(1)


def test_the_demo_script_allows_the_quickstarts_loopback_receiver() -> None:
    assert 'TESSERA_WEBHOOK_ALLOW_LOOPBACK="${TESSERA_WEBHOOK_ALLOW_LOOPBACK:-true}"' in (
        ROOT / "scripts" / "demo.sh").read_text(encoding="utf-8")


def test_readme_quickstart_runs_verbatim_against_the_demo(tmp_path: Path) -> None:
    # What scripts/demo.sh runs: `tessera serve --demo` with loopback webhooks allowed.
    server_env = tessera_env(tmp_path / "var", TESSERA_DEMO_PASSWORD=PASSWORD, TESSERA_WEBHOOK_ALLOW_LOOPBACK="true",
                             TESSERA_WORKER_POLL_SECONDS="0.2")
    with tessera_serve(server_env) as base:
        shell_env = {**tessera_env(tmp_path), "BASE": base, "HOOK_PORT": str(free_port()),
                     "TESSERA_DEMO_PASSWORD": PASSWORD}
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", quickstart_script()], cwd=ROOT, env=shell_env,
                                capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, f"quickstart failed:\n{result.stdout}\n{result.stderr}"
    lines = result.stdout.splitlines()
    assert "walked 120 assets" in lines
    assert lines[lines.index("walked 120 assets") + 1:][:2] == ["False", "True"]  # assigned, then replayed
    assert re.search(r"^dlv_\w+ evt_\w+ assets\.assignment\.changed$", result.stdout, re.M), result.stdout
