""" Contains all the data models used in inputs/outputs """

from .add_member_request import AddMemberRequest
from .added_member import AddedMember
from .added_member_envelope import AddedMemberEnvelope
from .application import Application
from .application_envelope import ApplicationEnvelope
from .application_list_envelope import ApplicationListEnvelope
from .application_list_result import ApplicationListResult
from .asset import Asset
from .asset_command_envelope import AssetCommandEnvelope
from .asset_command_envelope_code import AssetCommandEnvelopeCode
from .asset_create_payload import AssetCreatePayload
from .asset_create_payload_status import AssetCreatePayloadStatus
from .asset_options_datasource_item import AssetOptionsDatasourceItem
from .asset_status import AssetStatus
from .asset_status_datasource_item import AssetStatusDatasourceItem
from .asset_status_datasource_item_id import AssetStatusDatasourceItemId
from .asset_status_datasource_item_value import AssetStatusDatasourceItemValue
from .asset_update_payload import AssetUpdatePayload
from .asset_update_payload_status import AssetUpdatePayloadStatus
from .assets_create_request import AssetsCreateRequest
from .assets_date_comparison import AssetsDateComparison
from .assets_date_comparison_field_name import AssetsDateComparisonFieldName
from .assets_date_comparison_operator import AssetsDateComparisonOperator
from .assets_date_in import AssetsDateIn
from .assets_date_in_field_name import AssetsDateInFieldName
from .assets_date_in_operator import AssetsDateInOperator
from .assets_datetime_comparison import AssetsDatetimeComparison
from .assets_datetime_comparison_field_name import AssetsDatetimeComparisonFieldName
from .assets_datetime_comparison_operator import AssetsDatetimeComparisonOperator
from .assets_datetime_in import AssetsDatetimeIn
from .assets_datetime_in_field_name import AssetsDatetimeInFieldName
from .assets_datetime_in_operator import AssetsDatetimeInOperator
from .assets_delete_request import AssetsDeleteRequest
from .assets_delete_request_operation_type import AssetsDeleteRequestOperationType
from .assets_list_envelope import AssetsListEnvelope
from .assets_list_result import AssetsListResult
from .assets_null_test import AssetsNullTest
from .assets_null_test_field_name import AssetsNullTestFieldName
from .assets_null_test_operator import AssetsNullTestOperator
from .assets_number_comparison import AssetsNumberComparison
from .assets_number_comparison_field_name import AssetsNumberComparisonFieldName
from .assets_number_comparison_operator import AssetsNumberComparisonOperator
from .assets_number_in import AssetsNumberIn
from .assets_number_in_field_name import AssetsNumberInFieldName
from .assets_number_in_operator import AssetsNumberInOperator
from .assets_record_envelope import AssetsRecordEnvelope
from .assets_text_comparison import AssetsTextComparison
from .assets_text_comparison_field_name import AssetsTextComparisonFieldName
from .assets_text_comparison_operator import AssetsTextComparisonOperator
from .assets_text_in import AssetsTextIn
from .assets_text_in_field_name import AssetsTextInFieldName
from .assets_text_in_operator import AssetsTextInOperator
from .assets_text_like import AssetsTextLike
from .assets_text_like_field_name import AssetsTextLikeFieldName
from .assets_text_like_operator import AssetsTextLikeOperator
from .assets_update_request import AssetsUpdateRequest
from .assets_update_request_operation_type import AssetsUpdateRequestOperationType
from .audit_entry import AuditEntry
from .audit_entry_after_type_0 import AuditEntryAfterType0
from .audit_entry_before_type_0 import AuditEntryBeforeType0
from .audit_list_envelope import AuditListEnvelope
from .audit_list_result import AuditListResult
from .automation import Automation
from .automation_envelope import AutomationEnvelope
from .automation_list_envelope import AutomationListEnvelope
from .automation_list_result import AutomationListResult
from .automation_run import AutomationRun
from .automation_run_list_envelope import AutomationRunListEnvelope
from .automation_run_list_result import AutomationRunListResult
from .automation_run_result import AutomationRunResult
from .automation_run_status import AutomationRunStatus
from .automation_trigger import AutomationTrigger
from .call_stats import CallStats
from .call_stats_bucket import CallStatsBucket
from .call_stats_bucket_statuses import CallStatsBucketStatuses
from .call_stats_envelope import CallStatsEnvelope
from .catalog import Catalog
from .catalog_envelope import CatalogEnvelope
from .catalog_event_source import CatalogEventSource
from .catalog_scope import CatalogScope
from .catalog_webhook_event import CatalogWebhookEvent
from .change_member_request import ChangeMemberRequest
from .command_action import CommandAction
from .command_action_input import CommandActionInput
from .command_action_kind import CommandActionKind
from .create_application_request import CreateApplicationRequest
from .create_automation_request import CreateAutomationRequest
from .create_credential_request import CreateCredentialRequest
from .create_installation_request import CreateInstallationRequest
from .create_webhook_endpoint_request import CreateWebhookEndpointRequest
from .created_webhook_endpoint import CreatedWebhookEndpoint
from .created_webhook_endpoint_envelope import CreatedWebhookEndpointEnvelope
from .credential import Credential
from .credential_envelope import CredentialEnvelope
from .credential_key import CredentialKey
from .credential_key_alg import CredentialKeyAlg
from .credential_key_kty import CredentialKeyKty
from .credential_kind import CredentialKind
from .credential_list_envelope import CredentialListEnvelope
from .credential_list_result import CredentialListResult
from .credential_status import CredentialStatus
from .credential_summary import CredentialSummary
from .datasource_envelope import DatasourceEnvelope
from .datasource_result import DatasourceResult
from .deleted_automation import DeletedAutomation
from .deleted_automation_envelope import DeletedAutomationEnvelope
from .deleted_record import DeletedRecord
from .deleted_record_envelope import DeletedRecordEnvelope
from .deleted_record_envelope_code import DeletedRecordEnvelopeCode
from .deleted_webhook_endpoint import DeletedWebhookEndpoint
from .deleted_webhook_endpoint_envelope import DeletedWebhookEndpointEnvelope
from .delivery import Delivery
from .delivery_attempt import DeliveryAttempt
from .delivery_list_envelope import DeliveryListEnvelope
from .delivery_list_result import DeliveryListResult
from .delivery_stats import DeliveryStats
from .delivery_stats_bucket import DeliveryStatsBucket
from .delivery_stats_envelope import DeliveryStatsEnvelope
from .delivery_status import DeliveryStatus
from .envelope import Envelope
from .environment import Environment
from .error_envelope import ErrorEnvelope
from .error_envelope_code import ErrorEnvelopeCode
from .error_envelope_data_type_0 import ErrorEnvelopeDataType0
from .field_errors import FieldErrors
from .field_errors_field_errors import FieldErrorsFieldErrors
from .filter_condition import FilterCondition
from .filter_condition_operator import FilterConditionOperator
from .forbidden_data_type_0 import ForbiddenDataType0
from .forbidden_envelope import ForbiddenEnvelope
from .forbidden_envelope_code import ForbiddenEnvelopeCode
from .health_envelope import HealthEnvelope
from .health_status import HealthStatus
from .health_status_status import HealthStatusStatus
from .installation import Installation
from .installation_envelope import InstallationEnvelope
from .installation_list_envelope import InstallationListEnvelope
from .installation_list_result import InstallationListResult
from .installation_status import InstallationStatus
from .internal_error_envelope import InternalErrorEnvelope
from .internal_error_envelope_code import InternalErrorEnvelopeCode
from .jwks import Jwks
from .list_applications_sort_field import ListApplicationsSortField
from .list_applications_sort_order import ListApplicationsSortOrder
from .list_assets_records_sort_field import ListAssetsRecordsSortField
from .list_assets_records_sort_order import ListAssetsRecordsSortOrder
from .list_automation_runs_sort_field import ListAutomationRunsSortField
from .list_automation_runs_sort_order import ListAutomationRunsSortOrder
from .list_automations_sort_field import ListAutomationsSortField
from .list_automations_sort_order import ListAutomationsSortOrder
from .list_credentials_sort_field import ListCredentialsSortField
from .list_credentials_sort_order import ListCredentialsSortOrder
from .list_datasource_items_datasource_id import ListDatasourceItemsDatasourceId
from .list_deliveries_sort_field import ListDeliveriesSortField
from .list_deliveries_sort_order import ListDeliveriesSortOrder
from .list_installations_sort_field import ListInstallationsSortField
from .list_installations_sort_order import ListInstallationsSortOrder
from .list_members_sort_field import ListMembersSortField
from .list_members_sort_order import ListMembersSortOrder
from .list_stock_ins_records_sort_field import ListStockInsRecordsSortField
from .list_stock_ins_records_sort_order import ListStockInsRecordsSortOrder
from .list_webhook_endpoints_sort_field import ListWebhookEndpointsSortField
from .list_webhook_endpoints_sort_order import ListWebhookEndpointsSortOrder
from .login_envelope import LoginEnvelope
from .login_request import LoginRequest
from .login_result import LoginResult
from .member import Member
from .member_change import MemberChange
from .member_change_envelope import MemberChangeEnvelope
from .member_change_role_type_1 import MemberChangeRoleType1
from .member_change_role_type_2_type_1 import MemberChangeRoleType2Type1
from .member_change_role_type_3_type_1 import MemberChangeRoleType3Type1
from .member_list_envelope import MemberListEnvelope
from .member_list_result import MemberListResult
from .member_role import MemberRole
from .public_jwk import PublicJwk
from .public_jwk_alg import PublicJwkAlg
from .public_jwk_crv import PublicJwkCrv
from .public_jwk_kty import PublicJwkKty
from .public_jwk_use import PublicJwkUse
from .readiness_envelope import ReadinessEnvelope
from .readiness_status import ReadinessStatus
from .readiness_status_database import ReadinessStatusDatabase
from .readiness_status_redis import ReadinessStatusRedis
from .readiness_status_status import ReadinessStatusStatus
from .readiness_unavailable_envelope import ReadinessUnavailableEnvelope
from .readiness_unavailable_envelope_code import ReadinessUnavailableEnvelopeCode
from .recover_deliveries_request import RecoverDeliveriesRequest
from .recovered_deliveries import RecoveredDeliveries
from .recovered_deliveries_envelope import RecoveredDeliveriesEnvelope
from .replayed_delivery import ReplayedDelivery
from .replayed_delivery_envelope import ReplayedDeliveryEnvelope
from .replayed_delivery_status import ReplayedDeliveryStatus
from .retried_automation_run import RetriedAutomationRun
from .retried_automation_run_envelope import RetriedAutomationRunEnvelope
from .retried_automation_run_status import RetriedAutomationRunStatus
from .revoked_credential import RevokedCredential
from .revoked_credential_envelope import RevokedCredentialEnvelope
from .revoked_credential_status import RevokedCredentialStatus
from .rotate_credential_request import RotateCredentialRequest
from .rotate_webhook_secret_request import RotateWebhookSecretRequest
from .rotated_credential import RotatedCredential
from .rotated_credential_envelope import RotatedCredentialEnvelope
from .rotated_webhook_secret import RotatedWebhookSecret
from .rotated_webhook_secret_envelope import RotatedWebhookSecretEnvelope
from .search_audit_sort_field import SearchAuditSortField
from .search_audit_sort_order import SearchAuditSortOrder
from .session import Session
from .session_command_action import SessionCommandAction
from .session_command_action_kind import SessionCommandActionKind
from .session_command_action_payload import SessionCommandActionPayload
from .session_envelope import SessionEnvelope
from .stats_window import StatsWindow
from .stock_in import StockIn
from .stock_in_command_envelope import StockInCommandEnvelope
from .stock_in_command_envelope_code import StockInCommandEnvelopeCode
from .stock_in_create_payload import StockInCreatePayload
from .stock_in_update_payload import StockInUpdatePayload
from .stock_ins_create_request import StockInsCreateRequest
from .stock_ins_datetime_comparison import StockInsDatetimeComparison
from .stock_ins_datetime_comparison_field_name import StockInsDatetimeComparisonFieldName
from .stock_ins_datetime_comparison_operator import StockInsDatetimeComparisonOperator
from .stock_ins_datetime_in import StockInsDatetimeIn
from .stock_ins_datetime_in_field_name import StockInsDatetimeInFieldName
from .stock_ins_datetime_in_operator import StockInsDatetimeInOperator
from .stock_ins_delete_request import StockInsDeleteRequest
from .stock_ins_delete_request_operation_type import StockInsDeleteRequestOperationType
from .stock_ins_integer_comparison import StockInsIntegerComparison
from .stock_ins_integer_comparison_field_name import StockInsIntegerComparisonFieldName
from .stock_ins_integer_comparison_operator import StockInsIntegerComparisonOperator
from .stock_ins_integer_in import StockInsIntegerIn
from .stock_ins_integer_in_field_name import StockInsIntegerInFieldName
from .stock_ins_integer_in_operator import StockInsIntegerInOperator
from .stock_ins_list_envelope import StockInsListEnvelope
from .stock_ins_list_result import StockInsListResult
from .stock_ins_null_test import StockInsNullTest
from .stock_ins_null_test_field_name import StockInsNullTestFieldName
from .stock_ins_null_test_operator import StockInsNullTestOperator
from .stock_ins_record_envelope import StockInsRecordEnvelope
from .stock_ins_text_comparison import StockInsTextComparison
from .stock_ins_text_comparison_field_name import StockInsTextComparisonFieldName
from .stock_ins_text_comparison_operator import StockInsTextComparisonOperator
from .stock_ins_text_in import StockInsTextIn
from .stock_ins_text_in_field_name import StockInsTextInFieldName
from .stock_ins_text_in_operator import StockInsTextInOperator
from .stock_ins_text_like import StockInsTextLike
from .stock_ins_text_like_field_name import StockInsTextLikeFieldName
from .stock_ins_text_like_operator import StockInsTextLikeOperator
from .stock_ins_update_request import StockInsUpdateRequest
from .stock_ins_update_request_operation_type import StockInsUpdateRequestOperationType
from .switch_tenant_request import SwitchTenantRequest
from .tenant_membership import TenantMembership
from .trace_data import TraceData
from .update_automation_request import UpdateAutomationRequest
from .update_installation_request import UpdateInstallationRequest
from .update_webhook_endpoint_request import UpdateWebhookEndpointRequest
from .validation_error_envelope import ValidationErrorEnvelope
from .validation_error_envelope_code import ValidationErrorEnvelopeCode
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_envelope import WebhookEndpointEnvelope
from .webhook_endpoint_list_envelope import WebhookEndpointListEnvelope
from .webhook_endpoint_list_result import WebhookEndpointListResult
from .webhook_event_type import WebhookEventType
from .webhook_signature_format import WebhookSignatureFormat

__all__ = (
    "AddedMember",
    "AddedMemberEnvelope",
    "AddMemberRequest",
    "Application",
    "ApplicationEnvelope",
    "ApplicationListEnvelope",
    "ApplicationListResult",
    "Asset",
    "AssetCommandEnvelope",
    "AssetCommandEnvelopeCode",
    "AssetCreatePayload",
    "AssetCreatePayloadStatus",
    "AssetOptionsDatasourceItem",
    "AssetsCreateRequest",
    "AssetsDateComparison",
    "AssetsDateComparisonFieldName",
    "AssetsDateComparisonOperator",
    "AssetsDateIn",
    "AssetsDateInFieldName",
    "AssetsDateInOperator",
    "AssetsDatetimeComparison",
    "AssetsDatetimeComparisonFieldName",
    "AssetsDatetimeComparisonOperator",
    "AssetsDatetimeIn",
    "AssetsDatetimeInFieldName",
    "AssetsDatetimeInOperator",
    "AssetsDeleteRequest",
    "AssetsDeleteRequestOperationType",
    "AssetsListEnvelope",
    "AssetsListResult",
    "AssetsNullTest",
    "AssetsNullTestFieldName",
    "AssetsNullTestOperator",
    "AssetsNumberComparison",
    "AssetsNumberComparisonFieldName",
    "AssetsNumberComparisonOperator",
    "AssetsNumberIn",
    "AssetsNumberInFieldName",
    "AssetsNumberInOperator",
    "AssetsRecordEnvelope",
    "AssetStatus",
    "AssetStatusDatasourceItem",
    "AssetStatusDatasourceItemId",
    "AssetStatusDatasourceItemValue",
    "AssetsTextComparison",
    "AssetsTextComparisonFieldName",
    "AssetsTextComparisonOperator",
    "AssetsTextIn",
    "AssetsTextInFieldName",
    "AssetsTextInOperator",
    "AssetsTextLike",
    "AssetsTextLikeFieldName",
    "AssetsTextLikeOperator",
    "AssetsUpdateRequest",
    "AssetsUpdateRequestOperationType",
    "AssetUpdatePayload",
    "AssetUpdatePayloadStatus",
    "AuditEntry",
    "AuditEntryAfterType0",
    "AuditEntryBeforeType0",
    "AuditListEnvelope",
    "AuditListResult",
    "Automation",
    "AutomationEnvelope",
    "AutomationListEnvelope",
    "AutomationListResult",
    "AutomationRun",
    "AutomationRunListEnvelope",
    "AutomationRunListResult",
    "AutomationRunResult",
    "AutomationRunStatus",
    "AutomationTrigger",
    "CallStats",
    "CallStatsBucket",
    "CallStatsBucketStatuses",
    "CallStatsEnvelope",
    "Catalog",
    "CatalogEnvelope",
    "CatalogEventSource",
    "CatalogScope",
    "CatalogWebhookEvent",
    "ChangeMemberRequest",
    "CommandAction",
    "CommandActionInput",
    "CommandActionKind",
    "CreateApplicationRequest",
    "CreateAutomationRequest",
    "CreateCredentialRequest",
    "CreatedWebhookEndpoint",
    "CreatedWebhookEndpointEnvelope",
    "CreateInstallationRequest",
    "CreateWebhookEndpointRequest",
    "Credential",
    "CredentialEnvelope",
    "CredentialKey",
    "CredentialKeyAlg",
    "CredentialKeyKty",
    "CredentialKind",
    "CredentialListEnvelope",
    "CredentialListResult",
    "CredentialStatus",
    "CredentialSummary",
    "DatasourceEnvelope",
    "DatasourceResult",
    "DeletedAutomation",
    "DeletedAutomationEnvelope",
    "DeletedRecord",
    "DeletedRecordEnvelope",
    "DeletedRecordEnvelopeCode",
    "DeletedWebhookEndpoint",
    "DeletedWebhookEndpointEnvelope",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryListEnvelope",
    "DeliveryListResult",
    "DeliveryStats",
    "DeliveryStatsBucket",
    "DeliveryStatsEnvelope",
    "DeliveryStatus",
    "Envelope",
    "Environment",
    "ErrorEnvelope",
    "ErrorEnvelopeCode",
    "ErrorEnvelopeDataType0",
    "FieldErrors",
    "FieldErrorsFieldErrors",
    "FilterCondition",
    "FilterConditionOperator",
    "ForbiddenDataType0",
    "ForbiddenEnvelope",
    "ForbiddenEnvelopeCode",
    "HealthEnvelope",
    "HealthStatus",
    "HealthStatusStatus",
    "Installation",
    "InstallationEnvelope",
    "InstallationListEnvelope",
    "InstallationListResult",
    "InstallationStatus",
    "InternalErrorEnvelope",
    "InternalErrorEnvelopeCode",
    "Jwks",
    "ListApplicationsSortField",
    "ListApplicationsSortOrder",
    "ListAssetsRecordsSortField",
    "ListAssetsRecordsSortOrder",
    "ListAutomationRunsSortField",
    "ListAutomationRunsSortOrder",
    "ListAutomationsSortField",
    "ListAutomationsSortOrder",
    "ListCredentialsSortField",
    "ListCredentialsSortOrder",
    "ListDatasourceItemsDatasourceId",
    "ListDeliveriesSortField",
    "ListDeliveriesSortOrder",
    "ListInstallationsSortField",
    "ListInstallationsSortOrder",
    "ListMembersSortField",
    "ListMembersSortOrder",
    "ListStockInsRecordsSortField",
    "ListStockInsRecordsSortOrder",
    "ListWebhookEndpointsSortField",
    "ListWebhookEndpointsSortOrder",
    "LoginEnvelope",
    "LoginRequest",
    "LoginResult",
    "Member",
    "MemberChange",
    "MemberChangeEnvelope",
    "MemberChangeRoleType1",
    "MemberChangeRoleType2Type1",
    "MemberChangeRoleType3Type1",
    "MemberListEnvelope",
    "MemberListResult",
    "MemberRole",
    "PublicJwk",
    "PublicJwkAlg",
    "PublicJwkCrv",
    "PublicJwkKty",
    "PublicJwkUse",
    "ReadinessEnvelope",
    "ReadinessStatus",
    "ReadinessStatusDatabase",
    "ReadinessStatusRedis",
    "ReadinessStatusStatus",
    "ReadinessUnavailableEnvelope",
    "ReadinessUnavailableEnvelopeCode",
    "RecoverDeliveriesRequest",
    "RecoveredDeliveries",
    "RecoveredDeliveriesEnvelope",
    "ReplayedDelivery",
    "ReplayedDeliveryEnvelope",
    "ReplayedDeliveryStatus",
    "RetriedAutomationRun",
    "RetriedAutomationRunEnvelope",
    "RetriedAutomationRunStatus",
    "RevokedCredential",
    "RevokedCredentialEnvelope",
    "RevokedCredentialStatus",
    "RotateCredentialRequest",
    "RotatedCredential",
    "RotatedCredentialEnvelope",
    "RotatedWebhookSecret",
    "RotatedWebhookSecretEnvelope",
    "RotateWebhookSecretRequest",
    "SearchAuditSortField",
    "SearchAuditSortOrder",
    "Session",
    "SessionCommandAction",
    "SessionCommandActionKind",
    "SessionCommandActionPayload",
    "SessionEnvelope",
    "StatsWindow",
    "StockIn",
    "StockInCommandEnvelope",
    "StockInCommandEnvelopeCode",
    "StockInCreatePayload",
    "StockInsCreateRequest",
    "StockInsDatetimeComparison",
    "StockInsDatetimeComparisonFieldName",
    "StockInsDatetimeComparisonOperator",
    "StockInsDatetimeIn",
    "StockInsDatetimeInFieldName",
    "StockInsDatetimeInOperator",
    "StockInsDeleteRequest",
    "StockInsDeleteRequestOperationType",
    "StockInsIntegerComparison",
    "StockInsIntegerComparisonFieldName",
    "StockInsIntegerComparisonOperator",
    "StockInsIntegerIn",
    "StockInsIntegerInFieldName",
    "StockInsIntegerInOperator",
    "StockInsListEnvelope",
    "StockInsListResult",
    "StockInsNullTest",
    "StockInsNullTestFieldName",
    "StockInsNullTestOperator",
    "StockInsRecordEnvelope",
    "StockInsTextComparison",
    "StockInsTextComparisonFieldName",
    "StockInsTextComparisonOperator",
    "StockInsTextIn",
    "StockInsTextInFieldName",
    "StockInsTextInOperator",
    "StockInsTextLike",
    "StockInsTextLikeFieldName",
    "StockInsTextLikeOperator",
    "StockInsUpdateRequest",
    "StockInsUpdateRequestOperationType",
    "StockInUpdatePayload",
    "SwitchTenantRequest",
    "TenantMembership",
    "TraceData",
    "UpdateAutomationRequest",
    "UpdateInstallationRequest",
    "UpdateWebhookEndpointRequest",
    "ValidationErrorEnvelope",
    "ValidationErrorEnvelopeCode",
    "WebhookEndpoint",
    "WebhookEndpointEnvelope",
    "WebhookEndpointListEnvelope",
    "WebhookEndpointListResult",
    "WebhookEventType",
    "WebhookSignatureFormat",
)
