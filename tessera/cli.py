"""The ``tessera`` command: serve, worker, migrate, seed, check, generate."""

from __future__ import annotations

import argparse
import logging
import sys
import warnings
from pathlib import Path
from typing import Any, NamedTuple

from tessera.core.settings import SettingsError, load_settings

log = logging.getLogger("tessera.cli")

# Connexion imports Starlette's test client at import time, which warns about httpx on every start.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")


def _declared(settings: Any) -> Any:
    """The declarations of ``models.yaml`` (``upgrade`` builds the indexes their fields need and
    reconciles the role templates), once ``capabilities.yaml`` is checked against them too: a bad
    registry stops a command here, with one line naming its entry, before anything starts or says
    it listens."""
    from tessera.registry.capabilities import load_capabilities
    from tessera.registry.models import load_declarations

    declarations = load_declarations(settings.models_file)
    load_capabilities(settings.capabilities_file, declarations)
    return declarations


def _upgrade(settings: Any, progress: Any = None) -> list[str]:
    """``storage.migrate.upgrade`` with the declared models and role templates: what changed in
    fields and roles (``progress`` gets a line every few seconds of a long rename)."""
    from storage.migrate import upgrade

    declarations = _declared(settings)
    return upgrade(settings.database_url, models=declarations.models.values(), role_templates=declarations.roles,
                   progress=progress)


def _serve(args: argparse.Namespace) -> int:
    """Serve HTTP. One process by default, with the delivery and automation worker as a task on
    its loop; with ``--workers N`` (N > 1), N uvicorn processes and one worker process beside them."""
    import asyncio
    import subprocess

    import uvicorn

    from tessera.app import create_app, tune_gc
    from tessera.core.logs import configure_logging
    from tessera.tracing.setup import configure as configure_tracing
    from tessera.web.transport import server_options

    settings = load_settings()
    if args.workers > 1 and not settings.redis_url:
        # Each process would keep its own rate-limit counts and let N times every limit through.
        raise SettingsError(f"--workers {args.workers} needs TESSERA_REDIS_URL: the rate limits are counted in "
                            "Redis when several processes serve, and without it each process would count apart "
                            "and let every limit through once per process; set TESSERA_REDIS_URL or serve "
                            "with one process")
    transport = server_options(settings)  # TLS files, uvicorn's proxy headers off (see web/transport.py)
    configure_logging(settings.log_level, settings.log_json)
    _upgrade(settings)
    if args.demo:
        asyncio.run(_seed_demo(settings))
    base = f"{'https' if settings.tls_cert_file else 'http'}://{args.host}:{args.port}"
    print(f"Tessera listening on {base} (session API under /api, admin console at {base}/console)", flush=True)
    if args.workers <= 1:
        configure_tracing()  # here, not in the parent of several: each serving process sets up its own
        app = create_app(settings, workers=1 if settings.workers_in_process else 0, metrics_listener=True)
        tune_gc()
        uvicorn.run(app, host=args.host, port=args.port, log_config=None, access_log=False, **transport)
        return 0
    worker = None
    if settings.workers_in_process:
        worker = subprocess.Popen([sys.executable, "-c", "from tessera.cli import main; raise SystemExit(main())",
                                   "worker"])
    try:
        uvicorn.run("tessera.app:serve_app", factory=True, host=args.host, port=args.port, log_config=None,
                    access_log=False, workers=args.workers, **transport)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)
    return 0


async def _seed_demo(settings: Any) -> None:
    from tessera.demo import seed_demo
    from tessera.runtime import build_runtime

    runtime = build_runtime(settings)
    try:
        password = await seed_demo(runtime, settings.demo_password)
    finally:
        await runtime.aclose()
    if settings.demo_password is None:
        # Printed once to the operator's terminal (not the log stream) so the demo can be used.
        print(f"Demo users' password (TESSERA_DEMO_PASSWORD unset, generated): {password}", flush=True)


def _worker(args: argparse.Namespace) -> int:
    """Delivery and automation workers as a process of their own; stops on SIGINT/SIGTERM."""
    import asyncio
    import signal

    from tessera.core.logs import configure_logging
    from tessera.events.worker import Worker
    from tessera.runtime import build_runtime
    from tessera.tracing.setup import configure as configure_tracing
    from tessera.web.metrics import start_listener

    settings = load_settings()
    configure_logging(settings.log_level, settings.log_json)
    configure_tracing()  # off unless OTEL_TRACES_EXPORTER asks for it (tessera/tracing/setup.py)
    _upgrade(settings)

    async def run() -> None:
        runtime = build_runtime(settings)
        port = settings.metrics_port  # the worker has no API port: its metrics have a listener of their own
        listener = await start_listener(runtime.metrics, settings.metrics_host, port) if port else None
        workers = [Worker(runtime) for _ in range(args.tasks)]
        def stop() -> None:
            for w in workers:
                w.stop()

        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop)
        print(f"Tessera worker running ({args.tasks} task(s)); Ctrl-C stops it", flush=True)
        try:
            await asyncio.gather(*(w.run_forever() for w in workers))
        finally:
            if listener is not None:
                listener.close()
            await runtime.aclose()

    asyncio.run(run())
    return 0


def _migrate(args: argparse.Namespace) -> int:
    import time

    from tessera.core.logs import configure_logging

    settings = load_settings()
    configure_logging(settings.log_level, settings.log_json)
    if args.plan:
        from storage.migrate import plan

        declarations = _declared(settings)
        started = time.perf_counter()
        lines = plan(settings.database_url, declarations.models.values(), declarations.roles)
        for line in lines:
            print(line, flush=True)
        print(f"migrate --plan: {len(lines)} change(s) to make, nothing done "
              f"({time.perf_counter() - started:.1f} s)", flush=True)
        return 0
    started = time.perf_counter()
    changes = _upgrade(settings, progress=lambda line: print(line, flush=True))
    for line in changes:  # what renames, removed fields and role templates changed
        print(line, flush=True)
    print(f"migrate: done ({len(changes)} field and role change(s), {time.perf_counter() - started:.1f} s)",
          flush=True)
    return 0


def _seed(_args: argparse.Namespace) -> int:
    import asyncio

    from tessera.core.logs import configure_logging

    settings = load_settings()
    configure_logging(settings.log_level, settings.log_json)
    _upgrade(settings)
    asyncio.run(_seed_demo(settings))
    return 0


DEMO_SCOPES = "assets.read assets.manage inventory.stockins.read inventory.stockins.manage events.robot-fleet.publish"


def _op_quickstart(args: argparse.Namespace) -> int:
    import asyncio

    return asyncio.run(_quickstart(args))


async def _quickstart(args: argparse.Namespace) -> int:
    """Create an application, install it, create a credential and get a token, in one step.

    Acts as the named administrator (an operator command: it needs database access, not a
    password). Prints one JSON object; the client secret and token appear only there.
    """
    import json

    from tessera.access.actors import operator_actor
    from tessera.core.errors import Unauthorized
    from tessera.core.logs import configure_logging
    from tessera.openplatform.identity import applications, credentials, installations
    from tessera.openplatform.tokens import grants
    from tessera.runtime import build_runtime

    settings = load_settings()
    configure_logging("WARNING", settings.log_json)
    _upgrade(settings)
    rt = build_runtime(settings)
    try:
        try:  # the checks a session's actor passes: an active user, a member of the tenant
            actor = await operator_actor(rt, args.email, args.tenant)
        except Unauthorized:
            print(f"tessera: {args.email} is not an active member of tenant {args.tenant!r}", file=sys.stderr)
            return 2
        app = await applications.create_application(rt, actor, {"name": args.name}, None)
        inst = await installations.create_installation(
            rt, actor, app["appId"],
            {"tenantId": args.tenant, "environment": args.environment, "scopes": args.scopes.split()}, None,
        )
        cred = await credentials.create_credential(rt, actor, inst["installationId"], None)
        token = await grants.issue(rt, grants.TokenRequest("client_credentials", cred["clientId"], cred["clientSecret"],
                                                           None), None)
    finally:
        await rt.aclose()
    print(json.dumps({"appId": app["appId"], "installationId": inst["installationId"], "clientId": cred["clientId"],
                      "clientSecret": cred["clientSecret"], **token}, indent=2))
    return 0


def _published_document() -> dict[str, Any]:
    """The Open Platform document built from the skeleton and the registry."""
    from tessera.registry.capabilities import load_capabilities
    from tessera.registry.document import build_document
    from tessera.registry.models import load_declarations

    settings = load_settings()
    registry = load_capabilities(settings.capabilities_file, load_declarations(settings.models_file))
    return build_document(settings.openapi_dir / "open-platform.yaml", registry)


def _session_document() -> dict[str, Any]:
    """The session document built from the skeleton, models.yaml and capabilities.yaml."""
    from tessera.registry.capabilities import load_capabilities
    from tessera.registry.models import load_declarations
    from tessera.registry.session_document import build_session_document

    settings = load_settings()
    declarations = load_declarations(settings.models_file)
    return build_session_document(settings.openapi_dir / "session-api.yaml", declarations,
                                  load_capabilities(settings.capabilities_file, declarations))


def _check(_args: argparse.Namespace) -> int:
    """Validate settings, models.yaml, the registry and the OpenAPI documents without starting anything."""
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename

    settings = load_settings()
    published = _published_document()  # loads and cross-checks models.yaml and capabilities.yaml
    print("models.yaml: valid")
    print("capabilities.yaml: valid")
    for doc in sorted(settings.openapi_dir.glob("*.yaml")):
        spec, _ = read_from_filename(str(doc))
        validate(spec)
        print(f"{doc.name}: valid")
    validate(published)
    print("published Open Platform document: valid")
    validate(_session_document())
    print("published session document: valid")
    return 0


class _Output(NamedTuple):
    """One generated text file: where it goes, what it holds now (None: missing) and what it should hold."""

    target: Path
    current: str | None
    text: str


def _output(target: Path, text: str) -> _Output:
    """The file as it is on disk beside the text ``tessera generate`` would write there."""
    return _Output(target, target.read_text(encoding="utf-8") if target.is_file() else None, text)


def _generate(args: argparse.Namespace) -> int:
    """Write generated/: both documents, their Postman collections, then the SDKs generated from the documents;
    and the configuration reference of the documentation (``tessera.core.settings_reference``).

    With --check, write nothing and fail when any of it is stale (naming the files that differ). The documents
    are built before anything is generated, so a broken models.yaml or capabilities.yaml fails first; a missing
    generator (python or node) fails both modes the same way, with exit status 2.
    """
    from tessera.core import settings_reference
    from tessera.core.settings import PROJECT_ROOT
    from tessera.registry import sdk as sdkgen
    from tessera.registry import session_document, typescript
    from tessera.registry.document import generated_path, render

    reference = _output(PROJECT_ROOT / settings_reference.PAGE, settings_reference.render())
    published = _published_document()
    document = _output(generated_path(PROJECT_ROOT), render(published))
    session_doc = _session_document()
    session = _output(session_document.generated_path(PROJECT_ROOT), session_document.render(session_doc))
    try:
        sdkgen.require_generator()
        typescript.require_node()
        if args.check:
            stale = [f"{output.target.relative_to(PROJECT_ROOT)} (differs)"
                     for output in (document, session, reference) if output.current != output.text]
            return _report_stale(stale + _stale_derived(published, session_doc, document, session, args.verbose),
                                 (document, session, reference))
        _write_generated(published, session_doc, (document, session, reference), args.verbose)
    except sdkgen.SdkError as exc:
        print(f"tessera: {exc}", file=sys.stderr)
        return 2
    return 0


def _stale_derived(published: dict[str, Any], session_doc: dict[str, Any], document: _Output, session: _Output,
                   verbose: bool) -> list[str]:
    """What differs in the files derived from the documents (Postman collections, python and TypeScript SDKs),
    comparing the committed files with what the documents *as they would be written* generate."""
    from tessera.core.settings import PROJECT_ROOT
    from tessera.registry import postman, typescript
    from tessera.registry import sdk as sdkgen

    stale = postman.stale(PROJECT_ROOT, published, session_doc)
    with sdkgen.work_dir() as tmp:
        # The SDK as `tessera generate` would write it: from the document as it would be written.
        document_file = Path(tmp) / "document" / document.target.name
        document_file.parent.mkdir()
        document_file.write_text(document.text, encoding="utf-8")
        session_file = document_file.parent / session.target.name
        session_file.write_text(session.text, encoding="utf-8")
        results = sdkgen.generate(PROJECT_ROOT, Path(tmp), {"generated/open-platform.yaml": document_file,
                                                            "generated/session-api.yaml": session_file})
        _print_sdk_warnings(results, verbose)
        python_dir = sdkgen.python_dir(PROJECT_ROOT)
        for result in results:
            committed = python_dir / result.sdk.directory
            stale += [f"{committed.relative_to(PROJECT_ROOT)}/{diff}"
                      for diff in sdkgen.differences(result.path, committed)]
        documents = {typescript.OPEN_PLATFORM.document: document_file, typescript.SESSION.document: session_file}
        for package in typescript.SDKS:
            fresh = typescript.generate(PROJECT_ROOT, Path(tmp) / "typescript", documents[package.document], package)
            stale += [f"{package.target}/{diff}" for diff in sdkgen.differences(fresh, PROJECT_ROOT / package.target)]
    return stale


def _report_stale(stale: list[str], outputs: tuple[_Output, ...]) -> int:
    """``generate --check``'s verdict: the first 40 stale files on stderr (status 1), or every part up to date."""
    from tessera.core.settings import PROJECT_ROOT
    from tessera.registry import postman, typescript
    from tessera.registry import sdk as sdkgen

    if stale:
        shown = "".join(f"\n  {line}" for line in stale[:40])
        more = f"\n  ... and {len(stale) - 40} more" if len(stale) > 40 else ""
        print(f"tessera: generated/ is stale ({len(stale)} file(s)): run `tessera generate` and commit it:"
              f"{shown}{more}", file=sys.stderr)
        return 1
    for output in outputs:
        print(f"{output.target.relative_to(PROJECT_ROOT)}: up to date")
    print(f"{postman.DIRECTORY}: up to date")
    python_dir = sdkgen.python_dir(PROJECT_ROOT)
    for sdk in sdkgen.SDKS:
        print(f"{(python_dir / sdk.directory).relative_to(PROJECT_ROOT)}: up to date")
    for package in typescript.SDKS:
        print(f"{package.target}: up to date")
    return 0


def _write_generated(published: dict[str, Any], session_doc: dict[str, Any], outputs: tuple[_Output, ...],
                     verbose: bool) -> None:
    """``tessera generate`` without --check: write what changed, in the order --check compares it."""
    from tessera.core.settings import PROJECT_ROOT
    from tessera.registry import postman

    for output in outputs:
        _write_document(output.target, output.current, output.text)
    changed = postman.write(PROJECT_ROOT, published, session_doc)
    print(f"{postman.DIRECTORY}: {f'written ({len(changed)} file(s) changed)' if changed else 'unchanged'}")
    _write_python_sdk(PROJECT_ROOT, verbose)
    _write_typescript_sdk(PROJECT_ROOT)


def _write_python_sdk(root: Path, verbose: bool) -> None:
    """Regenerate each package of generated/python from the documents just written; swap in those that changed."""
    from tessera.registry import sdk as sdkgen

    python_dir = sdkgen.python_dir(root)
    with sdkgen.work_dir(python_dir) as tmp:  # next to the SDKs, so that they are swapped in by renames
        results = sdkgen.generate(root, Path(tmp))
        _print_sdk_warnings(results, verbose)
        for result in results:
            committed = python_dir / result.sdk.directory
            changed = sdkgen.differences(result.path, committed)
            if changed:
                sdkgen.replace(result.path, committed)
            state = f"written ({len(changed)} file(s) changed)" if changed else "unchanged"
            print(f"{committed.relative_to(root)}: {state}")


def _write_document(target: Any, current: str | None, text: str) -> None:
    """Write a generated document when it changed, and say which it was."""
    from tessera.core.settings import PROJECT_ROOT

    target.parent.mkdir(parents=True, exist_ok=True)
    if current != text:
        target.write_text(text, encoding="utf-8")
    print(f"{target.relative_to(PROJECT_ROOT)}: {'unchanged' if current == text else 'written'}")


def _write_typescript_sdk(root: Any) -> None:
    """Regenerate each package of generated/typescript; swap it in when it changed (keeping node_modules)."""
    from tessera.registry import sdk as sdkgen
    from tessera.registry import typescript

    for package in typescript.SDKS:
        committed = root / package.target
        with sdkgen.work_dir(committed.parent) as tmp:
            fresh = typescript.generate(root, Path(tmp), sdk=package)
            changed = sdkgen.differences(fresh, committed)
            if changed:
                if (committed / "node_modules").is_dir():
                    (committed / "node_modules").rename(fresh / "node_modules")
                sdkgen.replace(fresh, committed)
            state = f"written ({len(changed)} file(s) changed)" if changed else "unchanged"
            print(f"{package.target}: {state}")


def _print_sdk_warnings(results: list[Any], verbose: bool) -> None:
    """The generator's warnings point at parts of a document it could not turn into code (left out of the SDK)."""
    for result in results:
        if verbose and result.output:
            print(f"--- openapi-python-client on {result.sdk.document} ---\n{result.output}", file=sys.stderr)
        if result.warnings:
            lines = "".join(f"\n  - {line}" for line in result.warnings)
            print(f"warning: openapi-python-client left parts of {result.sdk.document} out of "
                  f"generated/python/{result.sdk.directory}:{lines}", file=sys.stderr)


def parser() -> argparse.ArgumentParser:
    """The command line: every option says what it does and, where it has one, its default."""
    root = argparse.ArgumentParser(prog="tessera", description=__doc__)
    sub = root.add_subparsers(dest="command", required=True)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_text, description=help_text,
                              formatter_class=argparse.ArgumentDefaultsHelpFormatter)

    serve = command("serve", "migrate the database and run the HTTP service")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8080, help="TCP port to listen on")
    serve.add_argument("--demo", action="store_true", help="seed the demo tenants, users and records")
    serve.add_argument("--workers", type=int, default=1,
                       help="HTTP processes (above 1, the delivery worker runs as one process beside them, "
                            "and TESSERA_REDIS_URL is required: the processes share their rate limits there)")
    serve.set_defaults(func=_serve)
    worker = command("worker", "run webhook delivery and automation workers (no HTTP)")
    worker.add_argument("--tasks", dest="tasks", type=int, default=1,
                        help="concurrent workers (asyncio tasks) in this process")
    worker.set_defaults(func=_worker)
    migrate = command("migrate", "apply database migrations, move renamed fields, build the declared indexes and "
                      "reconcile role templates")
    migrate.add_argument("--plan", action="store_true",
                         help="print what a migrate would do (revisions, renames with their record counts, "
                              "removed fields, indexes, role changes) and change nothing")
    migrate.set_defaults(func=_migrate)
    command("seed", "seed the demo data").set_defaults(func=_seed)
    command("check", "validate settings, models.yaml, capabilities.yaml and the OpenAPI documents"
            ).set_defaults(func=_check)
    generate = command("generate", "derive generated/ from openapi/, models.yaml and capabilities.yaml")
    generate.add_argument("--check", action="store_true", help="fail when generated/ is stale; write nothing")
    generate.add_argument("--verbose", action="store_true", help="print the SDK generator's full output")
    generate.set_defaults(func=_generate)
    quick = command("op-quickstart",
                    "create an Open Platform application, install it, create a credential and print a token")
    quick.add_argument("--email", default="admin@demo.example", help="the administrator to act as")
    quick.add_argument("--tenant", default="demo", help="code of the tenant to install the application into")
    quick.add_argument("--environment", default="development", choices=["development", "staging", "production"],
                       help="environment of the installation")
    quick.add_argument("--scopes", default=DEMO_SCOPES, help="space-separated scopes to grant")
    quick.add_argument("--name", default="Quickstart integration", help="name of the application to create")
    quick.set_defaults(func=_op_quickstart)
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except SettingsError as exc:
        print(f"tessera: configuration error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        from storage.field_moves import FieldEvolutionError
        from tessera.registry.capabilities import CapabilityError
        from tessera.registry.models import DeclarationError

        if isinstance(exc, DeclarationError | CapabilityError | FieldEvolutionError):
            print(f"tessera: {exc}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    raise SystemExit(main())
