"""The numeric bounds of input rules, in one place for the checks and for the documents.

The session list contract (``tessera.lists.contract``), the payload checks
(``tessera.records.payloads``) and the document generator (``tessera.registry.session_document``)
all read these, so what the documents state is what the service enforces.
"""

from __future__ import annotations

# The list contract of the session API.
MAX_PAGE_SIZE = 500
DEFAULT_PAGE_SIZE = 10
MAX_PAGE_NUM = 100_000
MAX_FILTERS = 20
MAX_IN_VALUES = 100
MAX_KEYWORD = 200
# A text filter value longer than this is refused (``like`` compares only this many characters).
MAX_FILTER_TEXT = 1000

# Record field values: integers JSON clients hold exactly, numbers whose 15 digits a double holds.
MAX_INTEGER = 2**53
MAX_NUMBER = 1e15
