"""Every command the getting-started page gives is run by a test, as the page writes it.

The page's commands are read from the page (its ``bash`` blocks and every inline ``bash scripts/...``),
so a command added to the page without a test here fails ``test_every_command_on_the_page_is_proven``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import httpx

from tests.support.live_server import ROOT, tessera_env, tessera_serve

PAGE = ROOT / "docs" / "getting-started.md"
DEMO = "bash scripts/demo.sh"
DEMO_WITH_PASSWORD = "TESSERA_DEMO_PASSWORD='choose-a-password' bash scripts/demo.sh"
TEST_COMMAND = "bash scripts/test.sh"
TEST_COMMAND_WITH_ARGUMENTS = "bash scripts/test.sh -k idempotency -x"
FAST_LOOP = "bash scripts/fast.sh"
FAST_LOOP_WITH_ARGUMENTS = "bash scripts/fast.sh tests/core/test_timestamps.py -x"
GENERATED = re.compile(r"password \(TESSERA_DEMO_PASSWORD unset, generated\): (\S+)")


def commands_on_the_page() -> set[str]:
    """The lines of the page's ``bash`` blocks (comments dropped) and its inline ``bash ...`` commands."""
    text = PAGE.read_text(encoding="utf-8")
    found = {line.split("  #")[0].strip() for block in re.findall(r"```bash\n(.*?)```", text, re.S)
             for line in block.splitlines() if line.strip()}
    return found | set(re.findall(r"`((?:[A-Z_]+=\S+ )?bash scripts/[^`]*)`", text))


def test_every_command_on_the_page_is_proven() -> None:
    # The two test-command forms are what CI runs: `.ci/run` is `bash scripts/test.sh`, and the
    # script hands its arguments to pytest (checked below); running the suite inside itself is not a test.
    assert commands_on_the_page() == {DEMO, DEMO_WITH_PASSWORD, TEST_COMMAND, TEST_COMMAND_WITH_ARGUMENTS, FAST_LOOP,
                                      FAST_LOOP_WITH_ARGUMENTS}


def _login(base: str, password: str) -> int:
    return httpx.post(f"{base}/api/auth/login", json={"email": "admin@demo.example", "password": password},
                      timeout=30).status_code


def test_the_demo_command_serves_a_password_that_signs_in_and_the_second_start_takes_the_chosen_one(
        tmp_path: Path) -> None:
    log = tmp_path / "first.log"
    with tessera_serve(tessera_env(tmp_path / "var"), log_path=log, shell=DEMO) as base:
        printed = GENERATED.search(log.read_text())
        assert printed is not None and _login(base, printed.group(1)) == 200
        assert httpx.get(f"{base}/console/", timeout=10).status_code == 200
    with tessera_serve(tessera_env(tmp_path / "var"), shell=DEMO_WITH_PASSWORD) as base:
        assert _login(base, "choose-a-password") == 200 and _login(base, printed.group(1)) == 401


def test_ci_runs_exactly_the_test_command_and_it_hands_its_arguments_to_pytest() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == f"exec {TEST_COMMAND}"
    script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert re.search(r'^\.venv/bin/python -m pytest .*"\$@"$', script, re.M)


def test_the_fast_loop_with_arguments_runs_the_unit_tests_it_is_given(tmp_path: Path) -> None:
    # Its own temporary root: a second pytest on the default one could clean up this run's directories.
    env = {**tessera_env(tmp_path), "TESSERA_TEST_WORKERS": "0", "PYTEST_ADDOPTS": f"--basetemp={tmp_path / 'fast'}"}
    result = subprocess.run(["bash", "-c", FAST_LOOP_WITH_ARGUMENTS], cwd=ROOT, capture_output=True, text=True,
                            timeout=300, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    summary = result.stdout.strip().splitlines()[-1]
    assert re.search(r"^\d+ passed", summary) and "failed" not in summary, summary


def test_the_fast_loop_runs_the_unit_tests_alone() -> None:
    script = (ROOT / "scripts" / "fast.sh").read_text(encoding="utf-8")
    assert re.search(r"TESSERA_TEST_FAST=1 exec \.venv/bin/python -m pytest .* -m unit", script)
