from enum import StrEnum

class QueryDatasourceItemsDatasourceId(StrEnum):
    ASSET_OPTIONS = "asset-options"
    ASSET_STATUS = "asset-status"

    def __str__(self) -> str:
        return str(self.value)
