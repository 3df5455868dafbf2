"""Messages that exist only as data, collected here so ``pybabel extract`` can see them.

The option labels of the ``asset-status`` data source are declared in ``models.yaml``
(``datasources.asset-status.options``) and translated at run time with ``translate(label)``.
Extraction only scans Python sources, so the labels are repeated here, marked with ``N_``,
to put them into ``tessera/locale/messages.pot``. Keep this tuple in step with models.yaml.
"""

from __future__ import annotations

from tessera.core.i18n import N_

DATASOURCE_OPTION_LABELS: tuple[str, ...] = (
    N_("In stock"),
    N_("Assigned"),
    N_("Retired"),
)
