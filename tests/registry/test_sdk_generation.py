"""generated/python: the SDKs `tessera generate` writes, how `--check` compares them, and the webhook helper copy."""

from __future__ import annotations

import json
import time
from importlib import metadata
from pathlib import Path

import pytest

from codegen import sdk as sdkgen
from codegen import typescript
from tessera import cli
from tessera.webhooks.verify import WebhookVerificationError, sign

ROOT = Path(__file__).resolve().parents[2]
SDK_WEBHOOKS = ROOT / "generated" / "python" / "open-platform-client" / "tessera_open_platform" / "webhooks.py"


def test_the_generator_is_pinned_in_the_sdk_and_test_extras() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert pyproject.count(f'"{sdkgen.GENERATOR}=={sdkgen.GENERATOR_VERSION}"') == 2
    assert metadata.version(sdkgen.GENERATOR) == sdkgen.GENERATOR_VERSION


def test_each_sdk_is_a_project_generated_from_a_committed_document_and_config() -> None:
    for sdk in sdkgen.SDKS:
        project = ROOT / "generated" / "python" / sdk.directory
        assert (project / "setup.py").is_file() and (project / sdk.package / "__init__.py").is_file()
        assert (ROOT / sdk.document).is_file() and (ROOT / sdk.config).is_file()
        assert "post_hooks: []" in (ROOT / sdk.config).read_text(encoding="utf-8")


def test_the_sdks_webhook_helper_is_the_services_verifier_with_a_header() -> None:
    source = (ROOT / "tessera" / "webhooks" / "verify.py").read_text(encoding="utf-8")
    assert SDK_WEBHOOKS.read_text(encoding="utf-8") == sdkgen.WEBHOOKS_HEADER + source


def test_the_sdks_verify_event_returns_the_event_only_when_it_verifies() -> None:
    from tessera_open_platform import webhooks

    body = json.dumps({"id": "evt_1", "type": "assets.assignment.changed", "schemaVersion": 1,
                       "occurredAt": "2026-11-22T08:00:00.000Z", "data": {"pid": "rec_1"}}).encode()
    stamp = int(time.time())
    headers = {"X-Webhook-Timestamp": str(stamp), "X-Webhook-Signature": sign(body, "whsec_a", stamp),
               "X-Webhook-Delivery": "dlv_1"}
    assert webhooks.verify_event(body, headers, ["whsec_b", "whsec_a"]) == json.loads(body)
    with pytest.raises(webhooks.WebhookVerificationError) as refused:
        webhooks.verify_event(body + b" ", headers, "whsec_a")
    assert refused.value.reason == "signature_mismatch"
    assert issubclass(webhooks.WebhookVerificationError, ValueError)
    assert not issubclass(webhooks.WebhookVerificationError, WebhookVerificationError)  # a copy, not an import
    scalar = b"[1]"
    headers["X-Webhook-Signature"] = sign(scalar, "whsec_a", stamp)
    with pytest.raises(ValueError, match="not a JSON object"):
        webhooks.verify_event(scalar, headers, "whsec_a")


def test_differences_name_changed_missing_and_extra_files_and_ignore_build_artifacts(tmp_path: Path) -> None:
    expected, actual = tmp_path / "expected", tmp_path / "actual"
    for tree in (expected, actual):
        (tree / "pkg").mkdir(parents=True)
        (tree / "pkg" / "same.py").write_text("x = 1\n")
    (expected / "pkg" / "changed.py").write_text("a = 1\n")
    (actual / "pkg" / "changed.py").write_text("a = 2\n")
    (expected / "pkg" / "missing.py").write_text("")
    (actual / "pkg" / "extra.py").write_text("")
    (actual / "pkg" / "__pycache__").mkdir()
    (actual / "pkg" / "__pycache__" / "same.cpython-311.pyc").write_bytes(b"\0")
    (actual / "pkg.egg-info").mkdir()
    (actual / "pkg.egg-info" / "PKG-INFO").write_text("Name: pkg\n")
    assert sdkgen.differences(expected, actual) == [
        "pkg/changed.py (differs)", "pkg/extra.py (not generated)", "pkg/missing.py (missing)"]
    assert sdkgen.differences(expected, expected) == []


def test_replace_swaps_the_tree_in(tmp_path: Path) -> None:
    current, new = tmp_path / "client", tmp_path / ".new"
    (current / "old").mkdir(parents=True)
    (new / "fresh").mkdir(parents=True)
    sdkgen.replace(new, current)
    assert [p.name for p in current.iterdir()] == ["fresh"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["client"]


def test_generate_says_how_to_install_the_generator_when_it_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(sdkgen.metadata, "version", missing)
    assert cli.main(["generate", "--check"]) == 2
    err = capsys.readouterr().err
    assert "openapi-python-client is not installed" in err and 'pip install -e ".[sdk]"' in err


def test_generate_refuses_another_generator_version(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sdkgen.metadata, "version", lambda _name: "0.1.0")
    assert cli.main(["generate"]) == 2
    assert f"generated/python is generated with {sdkgen.GENERATOR_VERSION}" in capsys.readouterr().err


def test_the_generators_warnings_are_condensed_to_one_line_each() -> None:
    output = (
        "Generating /tmp/x\nWarning(s) encountered while generating. Client was generated, but some pieces may be "
        "missing\n\nWARNING parsing POST /api/auth/login within auth.\n\nCannot parse response for status code "
        "<x> (Could not find reference in parsed models or enums), response will be omitted from generated client"
        '\n\n{\n  "$ref": "#/components/schemas/ValidationErrorEnvelope"\n}\n\nUnable to process schema '
        "/components/schemas/ValidationErrorEnvelope:\n\nA | None can't be merged with FieldErrors\n\nFailure to "
        "process schema has resulted in the removal of:\n/components/schemas/ValidationErrorEnvelope\n"
    )
    assert sdkgen.condense_warnings(output) == [
        "schema /components/schemas/ValidationErrorEnvelope left out: A | None can't be merged with FieldErrors",
        "1 responses of 1 operations left out (they refer to: ValidationErrorEnvelope)",
    ]
    assert sdkgen.condense_warnings("Generating /tmp/x\n") == []
    assert sdkgen.condense_warnings("Warning(s) encountered\n\nSomething new happened\n") == [
        "other warnings: see the generator's full output (`tessera generate --verbose`)"]


def test_generate_says_node_is_needed_when_it_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(typescript.shutil, "which", lambda _name: None)
    assert cli.main(["generate", "--check"]) == 2
    err = capsys.readouterr().err
    assert "node is not installed" in err and "openapi-typescript" in err


@pytest.mark.parametrize("package", typescript.SDKS, ids=lambda package: package.target)
def test_the_typescript_sdk_and_its_generator_are_pinned_in_lock_files(package: typescript.TypeScriptSdk) -> None:
    generator = json.loads((ROOT / typescript.GENERATOR_DIR / "package-lock.json").read_text(encoding="utf-8"))
    assert generator["packages"]["node_modules/openapi-typescript"]["version"] == typescript.GENERATOR_VERSION
    sdk_dir = ROOT / package.target
    manifest = json.loads((sdk_dir / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((sdk_dir / "package-lock.json").read_text(encoding="utf-8"))
    for name, version in {**manifest["dependencies"], **manifest["devDependencies"]}.items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name  # exact pins, locked


@pytest.mark.parametrize("package", typescript.SDKS, ids=lambda package: package.target)
def test_the_typescript_sdk_is_its_sources_plus_the_generated_types(package: typescript.TypeScriptSdk) -> None:
    sdk_dir, source = ROOT / package.target, ROOT / package.source
    for path in source.rglob("*"):
        if path.is_file() and "node_modules" not in path.parts:
            relative = path.relative_to(source)
            copy = sdk_dir / relative
            expected = path.read_text(encoding="utf-8")
            if path.suffix == ".ts":
                expected = typescript.header(f"{package.source}/{relative.as_posix()}") + expected
            assert copy.read_text(encoding="utf-8") == expected, copy
    assert "auto-generated by openapi-typescript" in (sdk_dir / typescript.SCHEMA).read_text(encoding="utf-8")


def test_the_typescript_session_types_json_parameters_by_their_content(tmp_path: Path) -> None:
    conditions = {"type": "array", "maxItems": 20, "items": {"$ref": "#/components/schemas/Condition"}}
    filters = {"name": "filters", "in": "query", "content": {"application/json": {"schema": conditions}}}
    doc = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
           "components": {"parameters": {"Filters": filters}, "schemas": {"Condition": {"type": "object"}}},
           "paths": {"/x": {"get": {"parameters": [{"$ref": "#/components/parameters/Filters"}],
                                    "responses": {"200": {"description": "ok"}}}}}}
    source = tmp_path / "doc.yaml"
    source.write_text(json.dumps(doc), encoding="utf-8")  # JSON is YAML
    typed = json.loads(typescript.typed_json_parameters(source, tmp_path).read_text(encoding="utf-8"))
    assert typed["components"]["parameters"]["Filters"] == {"name": "filters", "in": "query", "schema": conditions}
    # A structured query parameter not declared as JSON would be sent as JSON text by the client: refused.
    doc["paths"]["/x"]["get"]["parameters"] = [{"name": "ids", "in": "query", "schema": conditions}]
    source.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(sdkgen.SdkError, match="query parameter ids"):
        typescript.typed_json_parameters(source, tmp_path)
