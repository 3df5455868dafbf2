"""Screenshots the browser tests keep as artifacts (test-artifacts/console/, ignored by git).

The closing summary of pytest lists every one written during the run (tests/conftest.py), so a CI
log names the files to look at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "console"
SCREENSHOTS: list[Path] = []


def screenshot(page: Any, backend: str, name: str, *, full_page: bool = True) -> Path:
    """Save the page as test-artifacts/console/<backend>/<name>.png and remember the path."""
    path = ARTIFACTS / backend / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)
    SCREENSHOTS.append(path)
    return path
