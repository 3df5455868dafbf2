""" Contains all the data models used in inputs/outputs """

from .add_member_request import AddMemberRequest
from .added_member import AddedMember
from .added_member_envelope import AddedMemberEnvelope
from .application import Application
from .application_datetime_comparison import ApplicationDatetimeComparison
from .application_datetime_field import ApplicationDatetimeField
from .application_datetime_in import ApplicationDatetimeIn
from .application_envelope import ApplicationEnvelope
from .application_field import ApplicationField
from .application_list_envelope import ApplicationListEnvelope
from .application_list_query import ApplicationListQuery
from .application_list_result import ApplicationListResult
from .application_null_test import ApplicationNullTest
from .application_status import ApplicationStatus
from .application_text_comparison import ApplicationTextComparison
from .application_text_field import ApplicationTextField
from .application_text_in import ApplicationTextIn
from .application_text_like import ApplicationTextLike
from .asset import Asset
from .asset_command_envelope import AssetCommandEnvelope
from .asset_create_payload import AssetCreatePayload
from .asset_options_datasource_item import AssetOptionsDatasourceItem
from .asset_status import AssetStatus
from .asset_status_datasource_item import AssetStatusDatasourceItem
from .asset_status_option import AssetStatusOption
from .asset_update_payload import AssetUpdatePayload
from .assets_assign_command_action import AssetsAssignCommandAction
from .assets_assign_command_action_command import AssetsAssignCommandActionCommand
from .assets_assign_command_action_input import AssetsAssignCommandActionInput
from .assets_assign_command_action_kind import AssetsAssignCommandActionKind
from .assets_create_request import AssetsCreateRequest
from .assets_create_session_action import AssetsCreateSessionAction
from .assets_create_session_action_command import AssetsCreateSessionActionCommand
from .assets_create_session_action_kind import AssetsCreateSessionActionKind
from .assets_create_session_action_payload import AssetsCreateSessionActionPayload
from .assets_date_comparison import AssetsDateComparison
from .assets_date_field import AssetsDateField
from .assets_date_in import AssetsDateIn
from .assets_datetime_comparison import AssetsDatetimeComparison
from .assets_datetime_field import AssetsDatetimeField
from .assets_datetime_in import AssetsDatetimeIn
from .assets_delete_request import AssetsDeleteRequest
from .assets_delete_request_operation_type import AssetsDeleteRequestOperationType
from .assets_delete_session_action import AssetsDeleteSessionAction
from .assets_delete_session_action_command import AssetsDeleteSessionActionCommand
from .assets_delete_session_action_kind import AssetsDeleteSessionActionKind
from .assets_field import AssetsField
from .assets_list_envelope import AssetsListEnvelope
from .assets_list_query import AssetsListQuery
from .assets_list_result import AssetsListResult
from .assets_null_test import AssetsNullTest
from .assets_number_comparison import AssetsNumberComparison
from .assets_number_field import AssetsNumberField
from .assets_number_in import AssetsNumberIn
from .assets_record_envelope import AssetsRecordEnvelope
from .assets_text_comparison import AssetsTextComparison
from .assets_text_field import AssetsTextField
from .assets_text_in import AssetsTextIn
from .assets_text_like import AssetsTextLike
from .assets_update_request import AssetsUpdateRequest
from .assets_update_request_operation_type import AssetsUpdateRequestOperationType
from .assets_update_session_action import AssetsUpdateSessionAction
from .assets_update_session_action_command import AssetsUpdateSessionActionCommand
from .assets_update_session_action_kind import AssetsUpdateSessionActionKind
from .assets_update_session_action_payload import AssetsUpdateSessionActionPayload
from .audit_datetime_comparison import AuditDatetimeComparison
from .audit_datetime_field import AuditDatetimeField
from .audit_datetime_in import AuditDatetimeIn
from .audit_entry import AuditEntry
from .audit_entry_after_type_0 import AuditEntryAfterType0
from .audit_entry_before_type_0 import AuditEntryBeforeType0
from .audit_field import AuditField
from .audit_list_envelope import AuditListEnvelope
from .audit_list_query import AuditListQuery
from .audit_list_result import AuditListResult
from .audit_null_test import AuditNullTest
from .audit_text_comparison import AuditTextComparison
from .audit_text_field import AuditTextField
from .audit_text_in import AuditTextIn
from .audit_text_like import AuditTextLike
from .automation import Automation
from .automation_datetime_comparison import AutomationDatetimeComparison
from .automation_datetime_field import AutomationDatetimeField
from .automation_datetime_in import AutomationDatetimeIn
from .automation_envelope import AutomationEnvelope
from .automation_field import AutomationField
from .automation_integer_comparison import AutomationIntegerComparison
from .automation_integer_field import AutomationIntegerField
from .automation_integer_in import AutomationIntegerIn
from .automation_list_envelope import AutomationListEnvelope
from .automation_list_query import AutomationListQuery
from .automation_list_result import AutomationListResult
from .automation_null_test import AutomationNullTest
from .automation_run import AutomationRun
from .automation_run_datetime_comparison import AutomationRunDatetimeComparison
from .automation_run_datetime_field import AutomationRunDatetimeField
from .automation_run_datetime_in import AutomationRunDatetimeIn
from .automation_run_field import AutomationRunField
from .automation_run_integer_comparison import AutomationRunIntegerComparison
from .automation_run_integer_field import AutomationRunIntegerField
from .automation_run_integer_in import AutomationRunIntegerIn
from .automation_run_list_envelope import AutomationRunListEnvelope
from .automation_run_list_query import AutomationRunListQuery
from .automation_run_list_result import AutomationRunListResult
from .automation_run_null_test import AutomationRunNullTest
from .automation_run_result import AutomationRunResult
from .automation_run_status import AutomationRunStatus
from .automation_run_text_comparison import AutomationRunTextComparison
from .automation_run_text_field import AutomationRunTextField
from .automation_run_text_in import AutomationRunTextIn
from .automation_run_text_like import AutomationRunTextLike
from .automation_text_comparison import AutomationTextComparison
from .automation_text_field import AutomationTextField
from .automation_text_in import AutomationTextIn
from .automation_text_like import AutomationTextLike
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
from .command_result_code import CommandResultCode
from .comparison_operator import ComparisonOperator
from .create_application_request import CreateApplicationRequest
from .create_automation_request import CreateAutomationRequest
from .create_credential_request import CreateCredentialRequest
from .create_installation_request import CreateInstallationRequest
from .create_webhook_endpoint_request import CreateWebhookEndpointRequest
from .created_webhook_endpoint import CreatedWebhookEndpoint
from .created_webhook_endpoint_envelope import CreatedWebhookEndpointEnvelope
from .credential import Credential
from .credential_datetime_comparison import CredentialDatetimeComparison
from .credential_datetime_field import CredentialDatetimeField
from .credential_datetime_in import CredentialDatetimeIn
from .credential_envelope import CredentialEnvelope
from .credential_field import CredentialField
from .credential_key import CredentialKey
from .credential_key_alg import CredentialKeyAlg
from .credential_key_kty import CredentialKeyKty
from .credential_kind import CredentialKind
from .credential_list_envelope import CredentialListEnvelope
from .credential_list_query import CredentialListQuery
from .credential_list_result import CredentialListResult
from .credential_null_test import CredentialNullTest
from .credential_status import CredentialStatus
from .credential_summary import CredentialSummary
from .credential_text_comparison import CredentialTextComparison
from .credential_text_field import CredentialTextField
from .credential_text_in import CredentialTextIn
from .credential_text_like import CredentialTextLike
from .datasource_envelope import DatasourceEnvelope
from .datasource_field import DatasourceField
from .datasource_list_query import DatasourceListQuery
from .datasource_null_test import DatasourceNullTest
from .datasource_result import DatasourceResult
from .datasource_text_comparison import DatasourceTextComparison
from .datasource_text_field import DatasourceTextField
from .datasource_text_in import DatasourceTextIn
from .datasource_text_like import DatasourceTextLike
from .deleted_application import DeletedApplication
from .deleted_application_envelope import DeletedApplicationEnvelope
from .deleted_automation import DeletedAutomation
from .deleted_automation_envelope import DeletedAutomationEnvelope
from .deleted_record import DeletedRecord
from .deleted_record_envelope import DeletedRecordEnvelope
from .deleted_webhook_endpoint import DeletedWebhookEndpoint
from .deleted_webhook_endpoint_envelope import DeletedWebhookEndpointEnvelope
from .delivery import Delivery
from .delivery_attempt import DeliveryAttempt
from .delivery_attempt_outcome import DeliveryAttemptOutcome
from .delivery_datetime_comparison import DeliveryDatetimeComparison
from .delivery_datetime_field import DeliveryDatetimeField
from .delivery_datetime_in import DeliveryDatetimeIn
from .delivery_field import DeliveryField
from .delivery_integer_comparison import DeliveryIntegerComparison
from .delivery_integer_field import DeliveryIntegerField
from .delivery_integer_in import DeliveryIntegerIn
from .delivery_list_envelope import DeliveryListEnvelope
from .delivery_list_query import DeliveryListQuery
from .delivery_list_result import DeliveryListResult
from .delivery_null_test import DeliveryNullTest
from .delivery_stats import DeliveryStats
from .delivery_stats_bucket import DeliveryStatsBucket
from .delivery_stats_envelope import DeliveryStatsEnvelope
from .delivery_status import DeliveryStatus
from .delivery_text_comparison import DeliveryTextComparison
from .delivery_text_field import DeliveryTextField
from .delivery_text_in import DeliveryTextIn
from .delivery_text_like import DeliveryTextLike
from .ec_public_jwk import EcPublicJwk
from .ec_public_jwk_alg import EcPublicJwkAlg
from .ec_public_jwk_crv import EcPublicJwkCrv
from .ec_public_jwk_kty import EcPublicJwkKty
from .ec_public_jwk_use import EcPublicJwkUse
from .envelope import Envelope
from .environment import Environment
from .error_envelope import ErrorEnvelope
from .error_envelope_code import ErrorEnvelopeCode
from .error_envelope_data_type_0 import ErrorEnvelopeDataType0
from .forbidden_data_type_0 import ForbiddenDataType0
from .forbidden_envelope import ForbiddenEnvelope
from .forbidden_envelope_code import ForbiddenEnvelopeCode
from .health_envelope import HealthEnvelope
from .health_status import HealthStatus
from .health_status_status import HealthStatusStatus
from .installation import Installation
from .installation_datetime_comparison import InstallationDatetimeComparison
from .installation_datetime_field import InstallationDatetimeField
from .installation_datetime_in import InstallationDatetimeIn
from .installation_envelope import InstallationEnvelope
from .installation_event import InstallationEvent
from .installation_event_data import InstallationEventData
from .installation_events import InstallationEvents
from .installation_events_envelope import InstallationEventsEnvelope
from .installation_field import InstallationField
from .installation_list_envelope import InstallationListEnvelope
from .installation_list_query import InstallationListQuery
from .installation_list_result import InstallationListResult
from .installation_null_test import InstallationNullTest
from .installation_status import InstallationStatus
from .installation_text_comparison import InstallationTextComparison
from .installation_text_field import InstallationTextField
from .installation_text_in import InstallationTextIn
from .installation_text_like import InstallationTextLike
from .internal_error_envelope import InternalErrorEnvelope
from .internal_error_envelope_code import InternalErrorEnvelopeCode
from .inventory_stock_ins_create_command_action import InventoryStockInsCreateCommandAction
from .inventory_stock_ins_create_command_action_command import InventoryStockInsCreateCommandActionCommand
from .inventory_stock_ins_create_command_action_input import InventoryStockInsCreateCommandActionInput
from .inventory_stock_ins_create_command_action_kind import InventoryStockInsCreateCommandActionKind
from .jwks import Jwks
from .like_operator import LikeOperator
from .list_datasource_items_datasource_id import ListDatasourceItemsDatasourceId
from .login_envelope import LoginEnvelope
from .login_request import LoginRequest
from .login_result import LoginResult
from .member import Member
from .member_change import MemberChange
from .member_change_envelope import MemberChangeEnvelope
from .member_change_role_type_1 import MemberChangeRoleType1
from .member_change_role_type_2_type_1 import MemberChangeRoleType2Type1
from .member_change_role_type_3_type_1 import MemberChangeRoleType3Type1
from .member_datetime_comparison import MemberDatetimeComparison
from .member_datetime_field import MemberDatetimeField
from .member_datetime_in import MemberDatetimeIn
from .member_field import MemberField
from .member_list_envelope import MemberListEnvelope
from .member_list_query import MemberListQuery
from .member_list_result import MemberListResult
from .member_null_test import MemberNullTest
from .member_role import MemberRole
from .member_text_comparison import MemberTextComparison
from .member_text_field import MemberTextField
from .member_text_in import MemberTextIn
from .member_text_like import MemberTextLike
from .null_test_operator import NullTestOperator
from .okp_public_jwk import OkpPublicJwk
from .okp_public_jwk_alg import OkpPublicJwkAlg
from .okp_public_jwk_crv import OkpPublicJwkCrv
from .okp_public_jwk_kty import OkpPublicJwkKty
from .okp_public_jwk_use import OkpPublicJwkUse
from .query_datasource_items_datasource_id import QueryDatasourceItemsDatasourceId
from .readiness_envelope import ReadinessEnvelope
from .readiness_status import ReadinessStatus
from .readiness_status_database import ReadinessStatusDatabase
from .readiness_status_database_write import ReadinessStatusDatabaseWrite
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
from .robot_fleet_trigger import RobotFleetTrigger
from .robot_fleet_trigger_event_type import RobotFleetTriggerEventType
from .robot_fleet_trigger_source import RobotFleetTriggerSource
from .role_list_envelope import RoleListEnvelope
from .role_list_result import RoleListResult
from .rotate_credential_request import RotateCredentialRequest
from .rotate_webhook_secret_request import RotateWebhookSecretRequest
from .rotated_credential import RotatedCredential
from .rotated_credential_envelope import RotatedCredentialEnvelope
from .rotated_webhook_secret import RotatedWebhookSecret
from .rotated_webhook_secret_envelope import RotatedWebhookSecretEnvelope
from .rsa_public_jwk import RsaPublicJwk
from .rsa_public_jwk_alg import RsaPublicJwkAlg
from .rsa_public_jwk_kty import RsaPublicJwkKty
from .rsa_public_jwk_use import RsaPublicJwkUse
from .scope_list_item import ScopeListItem
from .session import Session
from .session_envelope import SessionEnvelope
from .set_operator import SetOperator
from .sort_order import SortOrder
from .stats_window import StatsWindow
from .stock_in import StockIn
from .stock_in_command_envelope import StockInCommandEnvelope
from .stock_in_create_payload import StockInCreatePayload
from .stock_in_update_payload import StockInUpdatePayload
from .stock_ins_create_request import StockInsCreateRequest
from .stock_ins_create_session_action import StockInsCreateSessionAction
from .stock_ins_create_session_action_command import StockInsCreateSessionActionCommand
from .stock_ins_create_session_action_kind import StockInsCreateSessionActionKind
from .stock_ins_create_session_action_payload import StockInsCreateSessionActionPayload
from .stock_ins_datetime_comparison import StockInsDatetimeComparison
from .stock_ins_datetime_field import StockInsDatetimeField
from .stock_ins_datetime_in import StockInsDatetimeIn
from .stock_ins_delete_request import StockInsDeleteRequest
from .stock_ins_delete_request_operation_type import StockInsDeleteRequestOperationType
from .stock_ins_delete_session_action import StockInsDeleteSessionAction
from .stock_ins_delete_session_action_command import StockInsDeleteSessionActionCommand
from .stock_ins_delete_session_action_kind import StockInsDeleteSessionActionKind
from .stock_ins_field import StockInsField
from .stock_ins_integer_comparison import StockInsIntegerComparison
from .stock_ins_integer_field import StockInsIntegerField
from .stock_ins_integer_in import StockInsIntegerIn
from .stock_ins_list_envelope import StockInsListEnvelope
from .stock_ins_list_query import StockInsListQuery
from .stock_ins_list_result import StockInsListResult
from .stock_ins_null_test import StockInsNullTest
from .stock_ins_record_envelope import StockInsRecordEnvelope
from .stock_ins_text_comparison import StockInsTextComparison
from .stock_ins_text_field import StockInsTextField
from .stock_ins_text_in import StockInsTextIn
from .stock_ins_text_like import StockInsTextLike
from .stock_ins_update_request import StockInsUpdateRequest
from .stock_ins_update_request_operation_type import StockInsUpdateRequestOperationType
from .stock_ins_update_session_action import StockInsUpdateSessionAction
from .stock_ins_update_session_action_command import StockInsUpdateSessionActionCommand
from .stock_ins_update_session_action_kind import StockInsUpdateSessionActionKind
from .stock_ins_update_session_action_payload import StockInsUpdateSessionActionPayload
from .switch_tenant_request import SwitchTenantRequest
from .tenant_membership import TenantMembership
from .tenant_role import TenantRole
from .trace_data import TraceData
from .update_application_request import UpdateApplicationRequest
from .update_automation_request import UpdateAutomationRequest
from .update_installation_request import UpdateInstallationRequest
from .update_webhook_endpoint_request import UpdateWebhookEndpointRequest
from .validation_error_data import ValidationErrorData
from .validation_error_data_field_errors import ValidationErrorDataFieldErrors
from .validation_error_envelope import ValidationErrorEnvelope
from .validation_error_envelope_code import ValidationErrorEnvelopeCode
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_datetime_comparison import WebhookEndpointDatetimeComparison
from .webhook_endpoint_datetime_field import WebhookEndpointDatetimeField
from .webhook_endpoint_datetime_in import WebhookEndpointDatetimeIn
from .webhook_endpoint_envelope import WebhookEndpointEnvelope
from .webhook_endpoint_field import WebhookEndpointField
from .webhook_endpoint_integer_comparison import WebhookEndpointIntegerComparison
from .webhook_endpoint_integer_field import WebhookEndpointIntegerField
from .webhook_endpoint_integer_in import WebhookEndpointIntegerIn
from .webhook_endpoint_list_envelope import WebhookEndpointListEnvelope
from .webhook_endpoint_list_query import WebhookEndpointListQuery
from .webhook_endpoint_list_result import WebhookEndpointListResult
from .webhook_endpoint_null_test import WebhookEndpointNullTest
from .webhook_endpoint_text_comparison import WebhookEndpointTextComparison
from .webhook_endpoint_text_field import WebhookEndpointTextField
from .webhook_endpoint_text_in import WebhookEndpointTextIn
from .webhook_endpoint_text_like import WebhookEndpointTextLike
from .webhook_event_type import WebhookEventType
from .webhook_signature_format import WebhookSignatureFormat

__all__ = (
    "AddedMember",
    "AddedMemberEnvelope",
    "AddMemberRequest",
    "Application",
    "ApplicationDatetimeComparison",
    "ApplicationDatetimeField",
    "ApplicationDatetimeIn",
    "ApplicationEnvelope",
    "ApplicationField",
    "ApplicationListEnvelope",
    "ApplicationListQuery",
    "ApplicationListResult",
    "ApplicationNullTest",
    "ApplicationStatus",
    "ApplicationTextComparison",
    "ApplicationTextField",
    "ApplicationTextIn",
    "ApplicationTextLike",
    "Asset",
    "AssetCommandEnvelope",
    "AssetCreatePayload",
    "AssetOptionsDatasourceItem",
    "AssetsAssignCommandAction",
    "AssetsAssignCommandActionCommand",
    "AssetsAssignCommandActionInput",
    "AssetsAssignCommandActionKind",
    "AssetsCreateRequest",
    "AssetsCreateSessionAction",
    "AssetsCreateSessionActionCommand",
    "AssetsCreateSessionActionKind",
    "AssetsCreateSessionActionPayload",
    "AssetsDateComparison",
    "AssetsDateField",
    "AssetsDateIn",
    "AssetsDatetimeComparison",
    "AssetsDatetimeField",
    "AssetsDatetimeIn",
    "AssetsDeleteRequest",
    "AssetsDeleteRequestOperationType",
    "AssetsDeleteSessionAction",
    "AssetsDeleteSessionActionCommand",
    "AssetsDeleteSessionActionKind",
    "AssetsField",
    "AssetsListEnvelope",
    "AssetsListQuery",
    "AssetsListResult",
    "AssetsNullTest",
    "AssetsNumberComparison",
    "AssetsNumberField",
    "AssetsNumberIn",
    "AssetsRecordEnvelope",
    "AssetStatus",
    "AssetStatusDatasourceItem",
    "AssetStatusOption",
    "AssetsTextComparison",
    "AssetsTextField",
    "AssetsTextIn",
    "AssetsTextLike",
    "AssetsUpdateRequest",
    "AssetsUpdateRequestOperationType",
    "AssetsUpdateSessionAction",
    "AssetsUpdateSessionActionCommand",
    "AssetsUpdateSessionActionKind",
    "AssetsUpdateSessionActionPayload",
    "AssetUpdatePayload",
    "AuditDatetimeComparison",
    "AuditDatetimeField",
    "AuditDatetimeIn",
    "AuditEntry",
    "AuditEntryAfterType0",
    "AuditEntryBeforeType0",
    "AuditField",
    "AuditListEnvelope",
    "AuditListQuery",
    "AuditListResult",
    "AuditNullTest",
    "AuditTextComparison",
    "AuditTextField",
    "AuditTextIn",
    "AuditTextLike",
    "Automation",
    "AutomationDatetimeComparison",
    "AutomationDatetimeField",
    "AutomationDatetimeIn",
    "AutomationEnvelope",
    "AutomationField",
    "AutomationIntegerComparison",
    "AutomationIntegerField",
    "AutomationIntegerIn",
    "AutomationListEnvelope",
    "AutomationListQuery",
    "AutomationListResult",
    "AutomationNullTest",
    "AutomationRun",
    "AutomationRunDatetimeComparison",
    "AutomationRunDatetimeField",
    "AutomationRunDatetimeIn",
    "AutomationRunField",
    "AutomationRunIntegerComparison",
    "AutomationRunIntegerField",
    "AutomationRunIntegerIn",
    "AutomationRunListEnvelope",
    "AutomationRunListQuery",
    "AutomationRunListResult",
    "AutomationRunNullTest",
    "AutomationRunResult",
    "AutomationRunStatus",
    "AutomationRunTextComparison",
    "AutomationRunTextField",
    "AutomationRunTextIn",
    "AutomationRunTextLike",
    "AutomationTextComparison",
    "AutomationTextField",
    "AutomationTextIn",
    "AutomationTextLike",
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
    "CommandResultCode",
    "ComparisonOperator",
    "CreateApplicationRequest",
    "CreateAutomationRequest",
    "CreateCredentialRequest",
    "CreatedWebhookEndpoint",
    "CreatedWebhookEndpointEnvelope",
    "CreateInstallationRequest",
    "CreateWebhookEndpointRequest",
    "Credential",
    "CredentialDatetimeComparison",
    "CredentialDatetimeField",
    "CredentialDatetimeIn",
    "CredentialEnvelope",
    "CredentialField",
    "CredentialKey",
    "CredentialKeyAlg",
    "CredentialKeyKty",
    "CredentialKind",
    "CredentialListEnvelope",
    "CredentialListQuery",
    "CredentialListResult",
    "CredentialNullTest",
    "CredentialStatus",
    "CredentialSummary",
    "CredentialTextComparison",
    "CredentialTextField",
    "CredentialTextIn",
    "CredentialTextLike",
    "DatasourceEnvelope",
    "DatasourceField",
    "DatasourceListQuery",
    "DatasourceNullTest",
    "DatasourceResult",
    "DatasourceTextComparison",
    "DatasourceTextField",
    "DatasourceTextIn",
    "DatasourceTextLike",
    "DeletedApplication",
    "DeletedApplicationEnvelope",
    "DeletedAutomation",
    "DeletedAutomationEnvelope",
    "DeletedRecord",
    "DeletedRecordEnvelope",
    "DeletedWebhookEndpoint",
    "DeletedWebhookEndpointEnvelope",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryAttemptOutcome",
    "DeliveryDatetimeComparison",
    "DeliveryDatetimeField",
    "DeliveryDatetimeIn",
    "DeliveryField",
    "DeliveryIntegerComparison",
    "DeliveryIntegerField",
    "DeliveryIntegerIn",
    "DeliveryListEnvelope",
    "DeliveryListQuery",
    "DeliveryListResult",
    "DeliveryNullTest",
    "DeliveryStats",
    "DeliveryStatsBucket",
    "DeliveryStatsEnvelope",
    "DeliveryStatus",
    "DeliveryTextComparison",
    "DeliveryTextField",
    "DeliveryTextIn",
    "DeliveryTextLike",
    "EcPublicJwk",
    "EcPublicJwkAlg",
    "EcPublicJwkCrv",
    "EcPublicJwkKty",
    "EcPublicJwkUse",
    "Envelope",
    "Environment",
    "ErrorEnvelope",
    "ErrorEnvelopeCode",
    "ErrorEnvelopeDataType0",
    "ForbiddenDataType0",
    "ForbiddenEnvelope",
    "ForbiddenEnvelopeCode",
    "HealthEnvelope",
    "HealthStatus",
    "HealthStatusStatus",
    "Installation",
    "InstallationDatetimeComparison",
    "InstallationDatetimeField",
    "InstallationDatetimeIn",
    "InstallationEnvelope",
    "InstallationEvent",
    "InstallationEventData",
    "InstallationEvents",
    "InstallationEventsEnvelope",
    "InstallationField",
    "InstallationListEnvelope",
    "InstallationListQuery",
    "InstallationListResult",
    "InstallationNullTest",
    "InstallationStatus",
    "InstallationTextComparison",
    "InstallationTextField",
    "InstallationTextIn",
    "InstallationTextLike",
    "InternalErrorEnvelope",
    "InternalErrorEnvelopeCode",
    "InventoryStockInsCreateCommandAction",
    "InventoryStockInsCreateCommandActionCommand",
    "InventoryStockInsCreateCommandActionInput",
    "InventoryStockInsCreateCommandActionKind",
    "Jwks",
    "LikeOperator",
    "ListDatasourceItemsDatasourceId",
    "LoginEnvelope",
    "LoginRequest",
    "LoginResult",
    "Member",
    "MemberChange",
    "MemberChangeEnvelope",
    "MemberChangeRoleType1",
    "MemberChangeRoleType2Type1",
    "MemberChangeRoleType3Type1",
    "MemberDatetimeComparison",
    "MemberDatetimeField",
    "MemberDatetimeIn",
    "MemberField",
    "MemberListEnvelope",
    "MemberListQuery",
    "MemberListResult",
    "MemberNullTest",
    "MemberRole",
    "MemberTextComparison",
    "MemberTextField",
    "MemberTextIn",
    "MemberTextLike",
    "NullTestOperator",
    "OkpPublicJwk",
    "OkpPublicJwkAlg",
    "OkpPublicJwkCrv",
    "OkpPublicJwkKty",
    "OkpPublicJwkUse",
    "QueryDatasourceItemsDatasourceId",
    "ReadinessEnvelope",
    "ReadinessStatus",
    "ReadinessStatusDatabase",
    "ReadinessStatusDatabaseWrite",
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
    "RobotFleetTrigger",
    "RobotFleetTriggerEventType",
    "RobotFleetTriggerSource",
    "RoleListEnvelope",
    "RoleListResult",
    "RotateCredentialRequest",
    "RotatedCredential",
    "RotatedCredentialEnvelope",
    "RotatedWebhookSecret",
    "RotatedWebhookSecretEnvelope",
    "RotateWebhookSecretRequest",
    "RsaPublicJwk",
    "RsaPublicJwkAlg",
    "RsaPublicJwkKty",
    "RsaPublicJwkUse",
    "ScopeListItem",
    "Session",
    "SessionEnvelope",
    "SetOperator",
    "SortOrder",
    "StatsWindow",
    "StockIn",
    "StockInCommandEnvelope",
    "StockInCreatePayload",
    "StockInsCreateRequest",
    "StockInsCreateSessionAction",
    "StockInsCreateSessionActionCommand",
    "StockInsCreateSessionActionKind",
    "StockInsCreateSessionActionPayload",
    "StockInsDatetimeComparison",
    "StockInsDatetimeField",
    "StockInsDatetimeIn",
    "StockInsDeleteRequest",
    "StockInsDeleteRequestOperationType",
    "StockInsDeleteSessionAction",
    "StockInsDeleteSessionActionCommand",
    "StockInsDeleteSessionActionKind",
    "StockInsField",
    "StockInsIntegerComparison",
    "StockInsIntegerField",
    "StockInsIntegerIn",
    "StockInsListEnvelope",
    "StockInsListQuery",
    "StockInsListResult",
    "StockInsNullTest",
    "StockInsRecordEnvelope",
    "StockInsTextComparison",
    "StockInsTextField",
    "StockInsTextIn",
    "StockInsTextLike",
    "StockInsUpdateRequest",
    "StockInsUpdateRequestOperationType",
    "StockInsUpdateSessionAction",
    "StockInsUpdateSessionActionCommand",
    "StockInsUpdateSessionActionKind",
    "StockInsUpdateSessionActionPayload",
    "StockInUpdatePayload",
    "SwitchTenantRequest",
    "TenantMembership",
    "TenantRole",
    "TraceData",
    "UpdateApplicationRequest",
    "UpdateAutomationRequest",
    "UpdateInstallationRequest",
    "UpdateWebhookEndpointRequest",
    "ValidationErrorData",
    "ValidationErrorDataFieldErrors",
    "ValidationErrorEnvelope",
    "ValidationErrorEnvelopeCode",
    "WebhookEndpoint",
    "WebhookEndpointDatetimeComparison",
    "WebhookEndpointDatetimeField",
    "WebhookEndpointDatetimeIn",
    "WebhookEndpointEnvelope",
    "WebhookEndpointField",
    "WebhookEndpointIntegerComparison",
    "WebhookEndpointIntegerField",
    "WebhookEndpointIntegerIn",
    "WebhookEndpointListEnvelope",
    "WebhookEndpointListQuery",
    "WebhookEndpointListResult",
    "WebhookEndpointNullTest",
    "WebhookEndpointTextComparison",
    "WebhookEndpointTextField",
    "WebhookEndpointTextIn",
    "WebhookEndpointTextLike",
    "WebhookEventType",
    "WebhookSignatureFormat",
)
