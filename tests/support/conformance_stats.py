"""What Schemathesis did per document, printed at the end of the run: the cases it sent, and how
many operations only ever answered 404 or only ever refused schema-valid data (both must be 0)."""

from __future__ import annotations

NOT_REACHED: dict[str, tuple[int, int]] = {}
# The name under which each run records (label, cases, (only 404, only refused) or None where the
# run does not count them) on its test report:
# reports reach the end of the run from every pytest-xdist worker, module globals do not.
STATS_PROPERTY = "schemathesis"
