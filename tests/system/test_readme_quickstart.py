"""The README's tour, the integrator quickstart and the Authlib ``private_key_jwt`` recipe of the
documentation run verbatim against a live server and do what they say."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
from pathlib import Path

import httpx
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tessera.app import create_app
from tests.conftest import Env, TenantUsers, bearer
from tests.support.live_server import ROOT, free_port, serve, tessera_env, tessera_serve

PASSWORD = "readme-quickstart-password"
DEMO_COMMAND = "bash scripts/demo.sh"


def marked_block(document: str, marker: str, language: str) -> str:
    """The fenced block between ``<!-- marker:begin -->`` and ``<!-- marker:end -->`` of ``document``."""
    text = (ROOT / document).read_text(encoding="utf-8")
    block = re.search(rf"<!-- {marker}:begin -->\n```{language}\n(.*?)```\n<!-- {marker}:end -->", text, re.S)
    assert block is not None, f"{document} lost its {marker} markers"
    return block.group(1)


def quickstart_script() -> str:
    return marked_block("docs/integrator/quickstart.md", "quickstart", "bash")


def authlib_private_key_jwt_recipe() -> str:
    return marked_block("docs/integrator/open-platform.md", "authlib-private-key-jwt", "python")


def test_the_readme_tour_runs_verbatim_against_the_demo(tmp_path: Path) -> None:
    server_env = tessera_env(tmp_path / "var", TESSERA_DEMO_PASSWORD=PASSWORD)
    with tessera_serve(server_env) as base:
        # The tour's `tessera op-quickstart` runs from the repository root on the demo's database.
        shell_env = {**server_env, "BASE": base}
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", marked_block("README.md", "tour", "bash")],
                                cwd=ROOT, env=shell_env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"the tour failed:\n{result.stdout}\n{result.stderr}"
    total, pid = result.stdout.split()
    assert int(total) > 0
    assert pid.startswith("rec_")


def _login(base: str, password: str) -> int:
    return httpx.post(f"{base}/api/auth/login", json={"email": "admin@demo.example", "password": password},
                      timeout=30).status_code


def test_a_second_demo_start_prints_a_password_that_signs_in_and_the_tour_runs(tmp_path: Path) -> None:
    """``bash scripts/demo.sh`` as a user runs it: a first start without a password, a second with the
    README's: the tour works after the second; a third start without one prints a new password, which
    signs in where the README's no longer does."""
    first_log, third_log = tmp_path / "first.log", tmp_path / "third.log"
    with tessera_serve(tessera_env(tmp_path / "var"), log_path=first_log, shell=DEMO_COMMAND) as base:
        generated = re.search(r"password \(TESSERA_DEMO_PASSWORD unset, generated\): (\S+)", first_log.read_text())
        assert generated is not None and _login(base, generated.group(1)) == 200
    server_env = tessera_env(tmp_path / "var", TESSERA_DEMO_PASSWORD=PASSWORD)
    with tessera_serve(server_env, shell=DEMO_COMMAND) as base:
        assert _login(base, PASSWORD) == 200 and _login(base, generated.group(1)) == 401
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", marked_block("README.md", "tour", "bash")],
                                cwd=ROOT, env={**server_env, "BASE": base}, capture_output=True, text=True,
                                timeout=120)
        assert result.returncode == 0, f"the tour failed after a second start:\n{result.stdout}\n{result.stderr}"
    with tessera_serve(tessera_env(tmp_path / "var"), log_path=third_log, shell=DEMO_COMMAND) as base:
        printed = re.search(r"password \(TESSERA_DEMO_PASSWORD unset, generated\): (\S+)", third_log.read_text())
        assert printed is not None and printed.group(1) != generated.group(1)
        assert _login(base, printed.group(1)) == 200 and _login(base, PASSWORD) == 401


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


def test_readme_authlib_private_key_jwt_recipe_introspects_and_revokes_with_the_assertion(
        env: Env, tenant: TenantUsers) -> None:
    # Authlib authenticates revocation with its own setting: left at its default it would send the
    # PEM as a Basic password, be refused, and the token would stay alive.
    installation = tenant.install()["installationId"]
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public_jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    created = tenant.admin_call("POST", f"/installations/{installation}/credentials", json={"publicJwk": public_jwk})
    assert created.status_code == 200, created.text
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    printed = io.StringIO()
    with serve(create_app(env.runtime.settings, env.runtime)) as base:
        scope = {"BASE": base, "CLIENT_ID": created.json()["data"]["clientId"], "PRIVATE_KEY_PEM": pem}
        with contextlib.redirect_stdout(printed):
            exec(authlib_private_key_jwt_recipe(), scope)  # noqa: S102 - the documentation's own snippet
        whoami = httpx.get(base + "/api/open/v1/whoami", headers=bearer(scope["token"]))
    introspected, revoked = printed.getvalue().splitlines()
    assert introspected.startswith("{'active': True,"), introspected
    assert revoked == "{}"
    assert whoami.status_code == 401
