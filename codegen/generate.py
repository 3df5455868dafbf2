"""``tessera generate``: write generated/ (both documents, the Postman collections, the SDKs) and the
generated pages of the documentation, or with ``--check`` write nothing and name what is stale.

Build time only: the ``generate`` command of ``tessera/cli.py`` is the one importer (an import contract in
``pyproject.toml`` keeps the rest of the service out).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NamedTuple

from codegen import commands_reference, configuration_reference, postman, typescript
from codegen import sdk as sdkgen
from tessera.core.settings import PROJECT_ROOT
from tessera.registry import session_document
from tessera.registry.document import generated_path, render


class _Output(NamedTuple):
    """One generated text file: where it goes, what it holds now (None: missing) and what it should hold."""

    target: Path
    current: str | None
    text: str


def _output(target: Path, text: str) -> _Output:
    """The file as it is on disk beside the text ``tessera generate`` would write there."""
    return _Output(target, target.read_text(encoding="utf-8") if target.is_file() else None, text)


def generate(published: dict[str, Any], session_doc: dict[str, Any], *, check: bool, verbose: bool) -> int:
    """Write generated/: both documents, their Postman collections, then the SDKs generated from the documents;
    and the documentation's pages of settings and commands (``configuration_reference``, ``commands_reference``).

    With --check, write nothing and fail when any of it is stale (naming the files that differ). The documents
    are built before anything is generated, so a broken models.yaml or capabilities.yaml fails first; a missing
    generator (python or node) fails both modes the same way, with exit status 2.
    """
    pages = (_output(PROJECT_ROOT / configuration_reference.PAGE, configuration_reference.render()),
             _output(PROJECT_ROOT / commands_reference.PAGE, commands_reference.render()))
    document = _output(generated_path(PROJECT_ROOT), render(published))
    session = _output(session_document.generated_path(PROJECT_ROOT), session_document.render(session_doc))
    try:
        sdkgen.require_generator()
        typescript.require_node()
        if check:
            stale = [f"{output.target.relative_to(PROJECT_ROOT)} (differs)"
                     for output in (document, session, *pages) if output.current != output.text]
            return _report_stale(stale + _stale_derived(published, session_doc, document, session, verbose),
                                 (document, session, *pages))
        _write_generated(published, session_doc, (document, session, *pages), verbose)
    except sdkgen.SdkError as exc:
        print(f"tessera: {exc}", file=sys.stderr)
        return 2
    return 0


def _stale_derived(published: dict[str, Any], session_doc: dict[str, Any], document: _Output, session: _Output,
                   verbose: bool) -> list[str]:
    """What differs in the files derived from the documents (Postman collections, python and TypeScript SDKs),
    comparing the committed files with what the documents *as they would be written* generate."""

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

    for output in outputs:
        _write_document(output.target, output.current, output.text)
    changed = postman.write(PROJECT_ROOT, published, session_doc)
    print(f"{postman.DIRECTORY}: {f'written ({len(changed)} file(s) changed)' if changed else 'unchanged'}")
    _write_python_sdk(PROJECT_ROOT, verbose)
    _write_typescript_sdk(PROJECT_ROOT)


def _write_python_sdk(root: Path, verbose: bool) -> None:
    """Regenerate each package of generated/python from the documents just written; swap in those that changed."""

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

    target.parent.mkdir(parents=True, exist_ok=True)
    if current != text:
        target.write_text(text, encoding="utf-8")
    print(f"{target.relative_to(PROJECT_ROOT)}: {'unchanged' if current == text else 'written'}")


def _write_typescript_sdk(root: Any) -> None:
    """Regenerate each package of generated/typescript; swap it in when it changed (keeping node_modules)."""

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


