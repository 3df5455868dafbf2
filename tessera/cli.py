"""tessera: serve the service, run its workers, migrate the database, seed the demo, check the declarations and
documents, generate what derives from them, and make a quickstart Open Platform credential."""

from __future__ import annotations

import argparse
import logging
import sys
import warnings
from typing import Any

from tessera.core.settings import SettingsError, load_settings

log = logging.getLogger("tessera.cli")

# Connexion imports Starlette's test client at import time, which warns about httpx on every start.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")


def _say(line: str) -> None:
    """One line on stdout, in one write. The log writer thread (``tessera.core.logs``) writes to the same
    terminal meanwhile, and with ``PYTHONUNBUFFERED`` a ``print`` writes its text and its newline
    apart: a log line fell between them once and glued itself to a printed password."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


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
    """``storage.schema.migrate.upgrade`` with the declared models and role templates: what changed in
    fields and roles (``progress`` gets a line every few seconds of a long rename)."""
    from storage.schema.migrate import upgrade

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
    _say(f"Tessera listening on {base} (session API under /api, admin console at {base}/console)")
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
        _say(f"Demo users' password (TESSERA_DEMO_PASSWORD unset, generated): {password}")


def _worker(args: argparse.Namespace) -> int:
    """Delivery and automation workers as a process of their own; stops on SIGINT/SIGTERM."""
    import asyncio
    import signal

    from tessera.background.worker import Worker
    from tessera.core.logs import configure_logging
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
        _say(f"Tessera worker running ({args.tasks} task(s)); Ctrl-C stops it")
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
        from storage.schema.migrate import plan

        declarations = _declared(settings)
        started = time.perf_counter()
        lines = plan(settings.database_url, declarations.models.values(), declarations.roles)
        for line in lines:
            _say(line)
        _say(f"migrate --plan: {len(lines)} change(s) to make, nothing done "
             f"({time.perf_counter() - started:.1f} s)")
        return 0
    started = time.perf_counter()
    changes = _upgrade(settings, progress=_say)
    for line in changes:  # what renames, removed fields and role templates changed
        _say(line)
    _say(f"migrate: done ({len(changes)} field and role change(s), {time.perf_counter() - started:.1f} s)")
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


def _generate(args: argparse.Namespace) -> int:
    """Write generated/ and the generated pages of the documentation (``codegen.generate``, the build-time
    package the service never imports), or with --check fail when any of it is stale."""
    from codegen.generate import generate

    return generate(_published_document(), _session_document(), check=args.check, verbose=args.verbose)


def _help_formatter(prog: str) -> argparse.HelpFormatter:
    # A fixed width: the commands page of the documentation is this help, and must not depend on a terminal.
    return argparse.ArgumentDefaultsHelpFormatter(prog, width=110)


def parser() -> argparse.ArgumentParser:
    """The command line: every option says what it does and, where it has one, its default."""
    return _parsers()[0]


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command's parser by name, in the order ``tessera --help`` lists them: ``tessera generate``
    writes the documentation's commands page (``docs/operator/commands.md``) from their help."""
    return _parsers()[1]


def _parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    root = argparse.ArgumentParser(prog="tessera", description=__doc__, formatter_class=_help_formatter)
    sub = root.add_subparsers(dest="command", required=True)
    commands: dict[str, argparse.ArgumentParser] = {}

    def command(name: str, help_text: str, details: str = "") -> argparse.ArgumentParser:
        commands[name] = sub.add_parser(name, help=help_text, description=f"{help_text}. {details}".strip(),
                                        formatter_class=_help_formatter)
        return commands[name]

    serve = command("serve", "migrate the database and run the HTTP service",
                    "One process by default, with the webhook delivery and automation worker as a task on its "
                    "event loop; with --workers N (N > 1), N API processes and one worker process beside them. "
                    "Every start migrates first, as `tessera migrate` does.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8080, help="TCP port to listen on")
    serve.add_argument("--demo", action="store_true", help="seed the demo tenants, users and records")
    serve.add_argument("--workers", type=int, default=1,
                       help="HTTP processes (above 1, the delivery worker runs as one process beside them, "
                            "and TESSERA_REDIS_URL is required: the processes share their rate limits there)")
    serve.set_defaults(func=_serve)
    worker = command("worker", "run webhook delivery and automation workers (no HTTP)",
                     "For API processes that run none (TESSERA_WORKERS_IN_PROCESS=false); stops on SIGINT or "
                     "SIGTERM.")
    worker.add_argument("--tasks", dest="tasks", type=int, default=1,
                        help="concurrent workers (asyncio tasks) in this process")
    worker.set_defaults(func=_worker)
    migrate = command("migrate", "apply database migrations, move renamed fields, build the declared indexes and "
                      "reconcile role templates",
                      "Brings the database to the latest revision; moves the values of fields renamed in models.yaml "
                      "(renamedFrom) and names the fields no longer declared; builds or drops the indexes that "
                      "follow models.yaml; and reconciles the role templates of models.yaml into every existing "
                      "tenant: a role a tenant lacks is created, a permission a template gained is added to that "
                      "role in every tenant, and nothing is removed (a permission a tenant's role holds beyond its "
                      "template is kept and named, for an administrator to withdraw on purpose). It prints one line "
                      "per change and `migrate: done (N field and role change(s), S s)`. Every serve, worker and "
                      "seed start does the same before it serves (PostgreSQL: under the migration lock).")
    migrate.add_argument("--plan", action="store_true",
                         help="print what a migrate would do (revisions, renames with their record counts, "
                              "removed fields, indexes, role changes) and change nothing")
    migrate.set_defaults(func=_migrate)
    command("seed", "seed the demo data", "The demo tenants, users and records when absent, as serve --demo "
            "seeds them; every run sets the demo users' password to TESSERA_DEMO_PASSWORD, or to a generated one "
            "it prints when that is unset.").set_defaults(func=_seed)
    command("check", "validate settings, models.yaml, capabilities.yaml and the OpenAPI documents",
            "Starts nothing and writes nothing; exit status 2 names the first error.").set_defaults(func=_check)
    generate = command("generate", "derive generated/ and the generated documentation pages from openapi/, "
                       "models.yaml and capabilities.yaml",
                       "Writes both documents, the two Postman collections and their environment, the Python and "
                       "TypeScript SDKs, and the configuration and commands pages of the documentation; with "
                       "--check it writes nothing and fails naming each stale file.")
    generate.add_argument("--check", action="store_true",
                          help="fail when generated/ or a generated docs page is stale; write nothing")
    generate.add_argument("--verbose", action="store_true", help="print the SDK generator's full output")
    generate.set_defaults(func=_generate)
    quick = command("op-quickstart",
                    "create an Open Platform application, install it, create a credential and print a token",
                    "Acts as the given administrator through the same checks as the session API; prints one JSON "
                    "object, the only place its client secret and token appear.")
    quick.add_argument("--email", default="admin@demo.example", help="the administrator to act as")
    quick.add_argument("--tenant", default="demo", help="code of the tenant to install the application into")
    quick.add_argument("--environment", default="development", choices=["development", "staging", "production"],
                       help="environment of the installation")
    quick.add_argument("--scopes", default=DEMO_SCOPES, help="space-separated scopes to grant")
    quick.add_argument("--name", default="Quickstart integration", help="name of the application to create")
    quick.set_defaults(func=_op_quickstart)
    return root, commands


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except SettingsError as exc:
        print(f"tessera: configuration error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        from storage.schema.field_moves import FieldEvolutionError
        from tessera.registry.capabilities import CapabilityError
        from tessera.registry.models import DeclarationError

        if isinstance(exc, DeclarationError | CapabilityError | FieldEvolutionError):
            print(f"tessera: {exc}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    raise SystemExit(main())
