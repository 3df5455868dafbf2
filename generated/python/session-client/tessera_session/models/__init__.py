""" Contains all the data models used in inputs/outputs """

from .add_member_request import AddMemberRequest
from .added_member import AddedMember
from .added_member_envelope import AddedMemberEnvelope
from .application import Application
from .application_datetime_comparison import ApplicationDatetimeComparison
from .application_datetime_comparison_field_name import ApplicationDatetimeComparisonFieldName
from .application_datetime_comparison_operator import ApplicationDatetimeComparisonOperator
from .application_datetime_in import ApplicationDatetimeIn
from .application_datetime_in_field_name import ApplicationDatetimeInFieldName
from .application_datetime_in_operator import ApplicationDatetimeInOperator
from .application_envelope import ApplicationEnvelope
from .application_list_envelope import ApplicationListEnvelope
from .application_list_result import ApplicationListResult
from .application_null_test import ApplicationNullTest
from .application_null_test_field_name import ApplicationNullTestFieldName
from .application_null_test_operator import ApplicationNullTestOperator
from .application_status import ApplicationStatus
from .application_text_comparison import ApplicationTextComparison
from .application_text_comparison_field_name import ApplicationTextComparisonFieldName
from .application_text_comparison_operator import ApplicationTextComparisonOperator
from .application_text_in import ApplicationTextIn
from .application_text_in_field_name import ApplicationTextInFieldName
from .application_text_in_operator import ApplicationTextInOperator
from .application_text_like import ApplicationTextLike
from .application_text_like_field_name import ApplicationTextLikeFieldName
from .application_text_like_operator import ApplicationTextLikeOperator
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
from .assets_delete_session_action import AssetsDeleteSessionAction
from .assets_delete_session_action_command import AssetsDeleteSessionActionCommand
from .assets_delete_session_action_kind import AssetsDeleteSessionActionKind
from .assets_list_envelope import AssetsListEnvelope
from .assets_list_query import AssetsListQuery
from .assets_list_query_sort_field import AssetsListQuerySortField
from .assets_list_query_sort_order import AssetsListQuerySortOrder
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
from .assets_update_session_action import AssetsUpdateSessionAction
from .assets_update_session_action_command import AssetsUpdateSessionActionCommand
from .assets_update_session_action_kind import AssetsUpdateSessionActionKind
from .assets_update_session_action_payload import AssetsUpdateSessionActionPayload
from .audit_datetime_comparison import AuditDatetimeComparison
from .audit_datetime_comparison_field_name import AuditDatetimeComparisonFieldName
from .audit_datetime_comparison_operator import AuditDatetimeComparisonOperator
from .audit_datetime_in import AuditDatetimeIn
from .audit_datetime_in_field_name import AuditDatetimeInFieldName
from .audit_datetime_in_operator import AuditDatetimeInOperator
from .audit_entry import AuditEntry
from .audit_entry_after_type_0 import AuditEntryAfterType0
from .audit_entry_before_type_0 import AuditEntryBeforeType0
from .audit_list_envelope import AuditListEnvelope
from .audit_list_result import AuditListResult
from .audit_null_test import AuditNullTest
from .audit_null_test_field_name import AuditNullTestFieldName
from .audit_null_test_operator import AuditNullTestOperator
from .audit_text_comparison import AuditTextComparison
from .audit_text_comparison_field_name import AuditTextComparisonFieldName
from .audit_text_comparison_operator import AuditTextComparisonOperator
from .audit_text_in import AuditTextIn
from .audit_text_in_field_name import AuditTextInFieldName
from .audit_text_in_operator import AuditTextInOperator
from .audit_text_like import AuditTextLike
from .audit_text_like_field_name import AuditTextLikeFieldName
from .audit_text_like_operator import AuditTextLikeOperator
from .automation import Automation
from .automation_datetime_comparison import AutomationDatetimeComparison
from .automation_datetime_comparison_field_name import AutomationDatetimeComparisonFieldName
from .automation_datetime_comparison_operator import AutomationDatetimeComparisonOperator
from .automation_datetime_in import AutomationDatetimeIn
from .automation_datetime_in_field_name import AutomationDatetimeInFieldName
from .automation_datetime_in_operator import AutomationDatetimeInOperator
from .automation_envelope import AutomationEnvelope
from .automation_integer_comparison import AutomationIntegerComparison
from .automation_integer_comparison_field_name import AutomationIntegerComparisonFieldName
from .automation_integer_comparison_operator import AutomationIntegerComparisonOperator
from .automation_integer_in import AutomationIntegerIn
from .automation_integer_in_field_name import AutomationIntegerInFieldName
from .automation_integer_in_operator import AutomationIntegerInOperator
from .automation_list_envelope import AutomationListEnvelope
from .automation_list_result import AutomationListResult
from .automation_null_test import AutomationNullTest
from .automation_null_test_field_name import AutomationNullTestFieldName
from .automation_null_test_operator import AutomationNullTestOperator
from .automation_run import AutomationRun
from .automation_run_datetime_comparison import AutomationRunDatetimeComparison
from .automation_run_datetime_comparison_field_name import AutomationRunDatetimeComparisonFieldName
from .automation_run_datetime_comparison_operator import AutomationRunDatetimeComparisonOperator
from .automation_run_datetime_in import AutomationRunDatetimeIn
from .automation_run_datetime_in_field_name import AutomationRunDatetimeInFieldName
from .automation_run_datetime_in_operator import AutomationRunDatetimeInOperator
from .automation_run_integer_comparison import AutomationRunIntegerComparison
from .automation_run_integer_comparison_field_name import AutomationRunIntegerComparisonFieldName
from .automation_run_integer_comparison_operator import AutomationRunIntegerComparisonOperator
from .automation_run_integer_in import AutomationRunIntegerIn
from .automation_run_integer_in_field_name import AutomationRunIntegerInFieldName
from .automation_run_integer_in_operator import AutomationRunIntegerInOperator
from .automation_run_list_envelope import AutomationRunListEnvelope
from .automation_run_list_result import AutomationRunListResult
from .automation_run_null_test import AutomationRunNullTest
from .automation_run_null_test_field_name import AutomationRunNullTestFieldName
from .automation_run_null_test_operator import AutomationRunNullTestOperator
from .automation_run_result import AutomationRunResult
from .automation_run_status import AutomationRunStatus
from .automation_run_text_comparison import AutomationRunTextComparison
from .automation_run_text_comparison_field_name import AutomationRunTextComparisonFieldName
from .automation_run_text_comparison_operator import AutomationRunTextComparisonOperator
from .automation_run_text_in import AutomationRunTextIn
from .automation_run_text_in_field_name import AutomationRunTextInFieldName
from .automation_run_text_in_operator import AutomationRunTextInOperator
from .automation_run_text_like import AutomationRunTextLike
from .automation_run_text_like_field_name import AutomationRunTextLikeFieldName
from .automation_run_text_like_operator import AutomationRunTextLikeOperator
from .automation_text_comparison import AutomationTextComparison
from .automation_text_comparison_field_name import AutomationTextComparisonFieldName
from .automation_text_comparison_operator import AutomationTextComparisonOperator
from .automation_text_in import AutomationTextIn
from .automation_text_in_field_name import AutomationTextInFieldName
from .automation_text_in_operator import AutomationTextInOperator
from .automation_text_like import AutomationTextLike
from .automation_text_like_field_name import AutomationTextLikeFieldName
from .automation_text_like_operator import AutomationTextLikeOperator
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
from .create_application_request import CreateApplicationRequest
from .create_automation_request import CreateAutomationRequest
from .create_credential_request import CreateCredentialRequest
from .create_installation_request import CreateInstallationRequest
from .create_webhook_endpoint_request import CreateWebhookEndpointRequest
from .created_webhook_endpoint import CreatedWebhookEndpoint
from .created_webhook_endpoint_envelope import CreatedWebhookEndpointEnvelope
from .credential import Credential
from .credential_datetime_comparison import CredentialDatetimeComparison
from .credential_datetime_comparison_field_name import CredentialDatetimeComparisonFieldName
from .credential_datetime_comparison_operator import CredentialDatetimeComparisonOperator
from .credential_datetime_in import CredentialDatetimeIn
from .credential_datetime_in_field_name import CredentialDatetimeInFieldName
from .credential_datetime_in_operator import CredentialDatetimeInOperator
from .credential_envelope import CredentialEnvelope
from .credential_key import CredentialKey
from .credential_key_alg import CredentialKeyAlg
from .credential_key_kty import CredentialKeyKty
from .credential_kind import CredentialKind
from .credential_list_envelope import CredentialListEnvelope
from .credential_list_result import CredentialListResult
from .credential_null_test import CredentialNullTest
from .credential_null_test_field_name import CredentialNullTestFieldName
from .credential_null_test_operator import CredentialNullTestOperator
from .credential_status import CredentialStatus
from .credential_summary import CredentialSummary
from .credential_text_comparison import CredentialTextComparison
from .credential_text_comparison_field_name import CredentialTextComparisonFieldName
from .credential_text_comparison_operator import CredentialTextComparisonOperator
from .credential_text_in import CredentialTextIn
from .credential_text_in_field_name import CredentialTextInFieldName
from .credential_text_in_operator import CredentialTextInOperator
from .credential_text_like import CredentialTextLike
from .credential_text_like_field_name import CredentialTextLikeFieldName
from .credential_text_like_operator import CredentialTextLikeOperator
from .datasource_envelope import DatasourceEnvelope
from .datasource_null_test import DatasourceNullTest
from .datasource_null_test_field_name import DatasourceNullTestFieldName
from .datasource_null_test_operator import DatasourceNullTestOperator
from .datasource_result import DatasourceResult
from .datasource_text_comparison import DatasourceTextComparison
from .datasource_text_comparison_field_name import DatasourceTextComparisonFieldName
from .datasource_text_comparison_operator import DatasourceTextComparisonOperator
from .datasource_text_in import DatasourceTextIn
from .datasource_text_in_field_name import DatasourceTextInFieldName
from .datasource_text_in_operator import DatasourceTextInOperator
from .datasource_text_like import DatasourceTextLike
from .datasource_text_like_field_name import DatasourceTextLikeFieldName
from .datasource_text_like_operator import DatasourceTextLikeOperator
from .deleted_application import DeletedApplication
from .deleted_application_envelope import DeletedApplicationEnvelope
from .deleted_automation import DeletedAutomation
from .deleted_automation_envelope import DeletedAutomationEnvelope
from .deleted_record import DeletedRecord
from .deleted_record_envelope import DeletedRecordEnvelope
from .deleted_record_envelope_code import DeletedRecordEnvelopeCode
from .deleted_webhook_endpoint import DeletedWebhookEndpoint
from .deleted_webhook_endpoint_envelope import DeletedWebhookEndpointEnvelope
from .delivery import Delivery
from .delivery_attempt import DeliveryAttempt
from .delivery_attempt_outcome import DeliveryAttemptOutcome
from .delivery_datetime_comparison import DeliveryDatetimeComparison
from .delivery_datetime_comparison_field_name import DeliveryDatetimeComparisonFieldName
from .delivery_datetime_comparison_operator import DeliveryDatetimeComparisonOperator
from .delivery_datetime_in import DeliveryDatetimeIn
from .delivery_datetime_in_field_name import DeliveryDatetimeInFieldName
from .delivery_datetime_in_operator import DeliveryDatetimeInOperator
from .delivery_integer_comparison import DeliveryIntegerComparison
from .delivery_integer_comparison_field_name import DeliveryIntegerComparisonFieldName
from .delivery_integer_comparison_operator import DeliveryIntegerComparisonOperator
from .delivery_integer_in import DeliveryIntegerIn
from .delivery_integer_in_field_name import DeliveryIntegerInFieldName
from .delivery_integer_in_operator import DeliveryIntegerInOperator
from .delivery_list_envelope import DeliveryListEnvelope
from .delivery_list_result import DeliveryListResult
from .delivery_null_test import DeliveryNullTest
from .delivery_null_test_field_name import DeliveryNullTestFieldName
from .delivery_null_test_operator import DeliveryNullTestOperator
from .delivery_stats import DeliveryStats
from .delivery_stats_bucket import DeliveryStatsBucket
from .delivery_stats_envelope import DeliveryStatsEnvelope
from .delivery_status import DeliveryStatus
from .delivery_text_comparison import DeliveryTextComparison
from .delivery_text_comparison_field_name import DeliveryTextComparisonFieldName
from .delivery_text_comparison_operator import DeliveryTextComparisonOperator
from .delivery_text_in import DeliveryTextIn
from .delivery_text_in_field_name import DeliveryTextInFieldName
from .delivery_text_in_operator import DeliveryTextInOperator
from .delivery_text_like import DeliveryTextLike
from .delivery_text_like_field_name import DeliveryTextLikeFieldName
from .delivery_text_like_operator import DeliveryTextLikeOperator
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
from .installation_datetime_comparison_field_name import InstallationDatetimeComparisonFieldName
from .installation_datetime_comparison_operator import InstallationDatetimeComparisonOperator
from .installation_datetime_in import InstallationDatetimeIn
from .installation_datetime_in_field_name import InstallationDatetimeInFieldName
from .installation_datetime_in_operator import InstallationDatetimeInOperator
from .installation_envelope import InstallationEnvelope
from .installation_event import InstallationEvent
from .installation_event_data import InstallationEventData
from .installation_events import InstallationEvents
from .installation_events_envelope import InstallationEventsEnvelope
from .installation_list_envelope import InstallationListEnvelope
from .installation_list_result import InstallationListResult
from .installation_null_test import InstallationNullTest
from .installation_null_test_field_name import InstallationNullTestFieldName
from .installation_null_test_operator import InstallationNullTestOperator
from .installation_status import InstallationStatus
from .installation_text_comparison import InstallationTextComparison
from .installation_text_comparison_field_name import InstallationTextComparisonFieldName
from .installation_text_comparison_operator import InstallationTextComparisonOperator
from .installation_text_in import InstallationTextIn
from .installation_text_in_field_name import InstallationTextInFieldName
from .installation_text_in_operator import InstallationTextInOperator
from .installation_text_like import InstallationTextLike
from .installation_text_like_field_name import InstallationTextLikeFieldName
from .installation_text_like_operator import InstallationTextLikeOperator
from .internal_error_envelope import InternalErrorEnvelope
from .internal_error_envelope_code import InternalErrorEnvelopeCode
from .inventory_stock_ins_create_command_action import InventoryStockInsCreateCommandAction
from .inventory_stock_ins_create_command_action_command import InventoryStockInsCreateCommandActionCommand
from .inventory_stock_ins_create_command_action_input import InventoryStockInsCreateCommandActionInput
from .inventory_stock_ins_create_command_action_kind import InventoryStockInsCreateCommandActionKind
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
from .list_datasource_items_sort_field import ListDatasourceItemsSortField
from .list_datasource_items_sort_order import ListDatasourceItemsSortOrder
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
from .member_datetime_comparison import MemberDatetimeComparison
from .member_datetime_comparison_field_name import MemberDatetimeComparisonFieldName
from .member_datetime_comparison_operator import MemberDatetimeComparisonOperator
from .member_datetime_in import MemberDatetimeIn
from .member_datetime_in_field_name import MemberDatetimeInFieldName
from .member_datetime_in_operator import MemberDatetimeInOperator
from .member_list_envelope import MemberListEnvelope
from .member_list_result import MemberListResult
from .member_null_test import MemberNullTest
from .member_null_test_field_name import MemberNullTestFieldName
from .member_null_test_operator import MemberNullTestOperator
from .member_role import MemberRole
from .member_text_comparison import MemberTextComparison
from .member_text_comparison_field_name import MemberTextComparisonFieldName
from .member_text_comparison_operator import MemberTextComparisonOperator
from .member_text_in import MemberTextIn
from .member_text_in_field_name import MemberTextInFieldName
from .member_text_in_operator import MemberTextInOperator
from .member_text_like import MemberTextLike
from .member_text_like_field_name import MemberTextLikeFieldName
from .member_text_like_operator import MemberTextLikeOperator
from .okp_public_jwk import OkpPublicJwk
from .okp_public_jwk_alg import OkpPublicJwkAlg
from .okp_public_jwk_crv import OkpPublicJwkCrv
from .okp_public_jwk_kty import OkpPublicJwkKty
from .okp_public_jwk_use import OkpPublicJwkUse
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
from .role import Role
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
from .search_audit_sort_field import SearchAuditSortField
from .search_audit_sort_order import SearchAuditSortOrder
from .session import Session
from .session_envelope import SessionEnvelope
from .stats_window import StatsWindow
from .stock_in import StockIn
from .stock_in_command_envelope import StockInCommandEnvelope
from .stock_in_command_envelope_code import StockInCommandEnvelopeCode
from .stock_in_create_payload import StockInCreatePayload
from .stock_in_update_payload import StockInUpdatePayload
from .stock_ins_create_request import StockInsCreateRequest
from .stock_ins_create_session_action import StockInsCreateSessionAction
from .stock_ins_create_session_action_command import StockInsCreateSessionActionCommand
from .stock_ins_create_session_action_kind import StockInsCreateSessionActionKind
from .stock_ins_create_session_action_payload import StockInsCreateSessionActionPayload
from .stock_ins_datetime_comparison import StockInsDatetimeComparison
from .stock_ins_datetime_comparison_field_name import StockInsDatetimeComparisonFieldName
from .stock_ins_datetime_comparison_operator import StockInsDatetimeComparisonOperator
from .stock_ins_datetime_in import StockInsDatetimeIn
from .stock_ins_datetime_in_field_name import StockInsDatetimeInFieldName
from .stock_ins_datetime_in_operator import StockInsDatetimeInOperator
from .stock_ins_delete_request import StockInsDeleteRequest
from .stock_ins_delete_request_operation_type import StockInsDeleteRequestOperationType
from .stock_ins_delete_session_action import StockInsDeleteSessionAction
from .stock_ins_delete_session_action_command import StockInsDeleteSessionActionCommand
from .stock_ins_delete_session_action_kind import StockInsDeleteSessionActionKind
from .stock_ins_integer_comparison import StockInsIntegerComparison
from .stock_ins_integer_comparison_field_name import StockInsIntegerComparisonFieldName
from .stock_ins_integer_comparison_operator import StockInsIntegerComparisonOperator
from .stock_ins_integer_in import StockInsIntegerIn
from .stock_ins_integer_in_field_name import StockInsIntegerInFieldName
from .stock_ins_integer_in_operator import StockInsIntegerInOperator
from .stock_ins_list_envelope import StockInsListEnvelope
from .stock_ins_list_query import StockInsListQuery
from .stock_ins_list_query_sort_field import StockInsListQuerySortField
from .stock_ins_list_query_sort_order import StockInsListQuerySortOrder
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
from .stock_ins_update_session_action import StockInsUpdateSessionAction
from .stock_ins_update_session_action_command import StockInsUpdateSessionActionCommand
from .stock_ins_update_session_action_kind import StockInsUpdateSessionActionKind
from .stock_ins_update_session_action_payload import StockInsUpdateSessionActionPayload
from .switch_tenant_request import SwitchTenantRequest
from .tenant_membership import TenantMembership
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
from .webhook_endpoint_datetime_comparison_field_name import WebhookEndpointDatetimeComparisonFieldName
from .webhook_endpoint_datetime_comparison_operator import WebhookEndpointDatetimeComparisonOperator
from .webhook_endpoint_datetime_in import WebhookEndpointDatetimeIn
from .webhook_endpoint_datetime_in_field_name import WebhookEndpointDatetimeInFieldName
from .webhook_endpoint_datetime_in_operator import WebhookEndpointDatetimeInOperator
from .webhook_endpoint_envelope import WebhookEndpointEnvelope
from .webhook_endpoint_integer_comparison import WebhookEndpointIntegerComparison
from .webhook_endpoint_integer_comparison_field_name import WebhookEndpointIntegerComparisonFieldName
from .webhook_endpoint_integer_comparison_operator import WebhookEndpointIntegerComparisonOperator
from .webhook_endpoint_integer_in import WebhookEndpointIntegerIn
from .webhook_endpoint_integer_in_field_name import WebhookEndpointIntegerInFieldName
from .webhook_endpoint_integer_in_operator import WebhookEndpointIntegerInOperator
from .webhook_endpoint_list_envelope import WebhookEndpointListEnvelope
from .webhook_endpoint_list_result import WebhookEndpointListResult
from .webhook_endpoint_null_test import WebhookEndpointNullTest
from .webhook_endpoint_null_test_field_name import WebhookEndpointNullTestFieldName
from .webhook_endpoint_null_test_operator import WebhookEndpointNullTestOperator
from .webhook_endpoint_text_comparison import WebhookEndpointTextComparison
from .webhook_endpoint_text_comparison_field_name import WebhookEndpointTextComparisonFieldName
from .webhook_endpoint_text_comparison_operator import WebhookEndpointTextComparisonOperator
from .webhook_endpoint_text_in import WebhookEndpointTextIn
from .webhook_endpoint_text_in_field_name import WebhookEndpointTextInFieldName
from .webhook_endpoint_text_in_operator import WebhookEndpointTextInOperator
from .webhook_endpoint_text_like import WebhookEndpointTextLike
from .webhook_endpoint_text_like_field_name import WebhookEndpointTextLikeFieldName
from .webhook_endpoint_text_like_operator import WebhookEndpointTextLikeOperator
from .webhook_event_type import WebhookEventType
from .webhook_signature_format import WebhookSignatureFormat

__all__ = (
    "AddedMember",
    "AddedMemberEnvelope",
    "AddMemberRequest",
    "Application",
    "ApplicationDatetimeComparison",
    "ApplicationDatetimeComparisonFieldName",
    "ApplicationDatetimeComparisonOperator",
    "ApplicationDatetimeIn",
    "ApplicationDatetimeInFieldName",
    "ApplicationDatetimeInOperator",
    "ApplicationEnvelope",
    "ApplicationListEnvelope",
    "ApplicationListResult",
    "ApplicationNullTest",
    "ApplicationNullTestFieldName",
    "ApplicationNullTestOperator",
    "ApplicationStatus",
    "ApplicationTextComparison",
    "ApplicationTextComparisonFieldName",
    "ApplicationTextComparisonOperator",
    "ApplicationTextIn",
    "ApplicationTextInFieldName",
    "ApplicationTextInOperator",
    "ApplicationTextLike",
    "ApplicationTextLikeFieldName",
    "ApplicationTextLikeOperator",
    "Asset",
    "AssetCommandEnvelope",
    "AssetCommandEnvelopeCode",
    "AssetCreatePayload",
    "AssetCreatePayloadStatus",
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
    "AssetsDeleteSessionAction",
    "AssetsDeleteSessionActionCommand",
    "AssetsDeleteSessionActionKind",
    "AssetsListEnvelope",
    "AssetsListQuery",
    "AssetsListQuerySortField",
    "AssetsListQuerySortOrder",
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
    "AssetsUpdateSessionAction",
    "AssetsUpdateSessionActionCommand",
    "AssetsUpdateSessionActionKind",
    "AssetsUpdateSessionActionPayload",
    "AssetUpdatePayload",
    "AssetUpdatePayloadStatus",
    "AuditDatetimeComparison",
    "AuditDatetimeComparisonFieldName",
    "AuditDatetimeComparisonOperator",
    "AuditDatetimeIn",
    "AuditDatetimeInFieldName",
    "AuditDatetimeInOperator",
    "AuditEntry",
    "AuditEntryAfterType0",
    "AuditEntryBeforeType0",
    "AuditListEnvelope",
    "AuditListResult",
    "AuditNullTest",
    "AuditNullTestFieldName",
    "AuditNullTestOperator",
    "AuditTextComparison",
    "AuditTextComparisonFieldName",
    "AuditTextComparisonOperator",
    "AuditTextIn",
    "AuditTextInFieldName",
    "AuditTextInOperator",
    "AuditTextLike",
    "AuditTextLikeFieldName",
    "AuditTextLikeOperator",
    "Automation",
    "AutomationDatetimeComparison",
    "AutomationDatetimeComparisonFieldName",
    "AutomationDatetimeComparisonOperator",
    "AutomationDatetimeIn",
    "AutomationDatetimeInFieldName",
    "AutomationDatetimeInOperator",
    "AutomationEnvelope",
    "AutomationIntegerComparison",
    "AutomationIntegerComparisonFieldName",
    "AutomationIntegerComparisonOperator",
    "AutomationIntegerIn",
    "AutomationIntegerInFieldName",
    "AutomationIntegerInOperator",
    "AutomationListEnvelope",
    "AutomationListResult",
    "AutomationNullTest",
    "AutomationNullTestFieldName",
    "AutomationNullTestOperator",
    "AutomationRun",
    "AutomationRunDatetimeComparison",
    "AutomationRunDatetimeComparisonFieldName",
    "AutomationRunDatetimeComparisonOperator",
    "AutomationRunDatetimeIn",
    "AutomationRunDatetimeInFieldName",
    "AutomationRunDatetimeInOperator",
    "AutomationRunIntegerComparison",
    "AutomationRunIntegerComparisonFieldName",
    "AutomationRunIntegerComparisonOperator",
    "AutomationRunIntegerIn",
    "AutomationRunIntegerInFieldName",
    "AutomationRunIntegerInOperator",
    "AutomationRunListEnvelope",
    "AutomationRunListResult",
    "AutomationRunNullTest",
    "AutomationRunNullTestFieldName",
    "AutomationRunNullTestOperator",
    "AutomationRunResult",
    "AutomationRunStatus",
    "AutomationRunTextComparison",
    "AutomationRunTextComparisonFieldName",
    "AutomationRunTextComparisonOperator",
    "AutomationRunTextIn",
    "AutomationRunTextInFieldName",
    "AutomationRunTextInOperator",
    "AutomationRunTextLike",
    "AutomationRunTextLikeFieldName",
    "AutomationRunTextLikeOperator",
    "AutomationTextComparison",
    "AutomationTextComparisonFieldName",
    "AutomationTextComparisonOperator",
    "AutomationTextIn",
    "AutomationTextInFieldName",
    "AutomationTextInOperator",
    "AutomationTextLike",
    "AutomationTextLikeFieldName",
    "AutomationTextLikeOperator",
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
    "CreateApplicationRequest",
    "CreateAutomationRequest",
    "CreateCredentialRequest",
    "CreatedWebhookEndpoint",
    "CreatedWebhookEndpointEnvelope",
    "CreateInstallationRequest",
    "CreateWebhookEndpointRequest",
    "Credential",
    "CredentialDatetimeComparison",
    "CredentialDatetimeComparisonFieldName",
    "CredentialDatetimeComparisonOperator",
    "CredentialDatetimeIn",
    "CredentialDatetimeInFieldName",
    "CredentialDatetimeInOperator",
    "CredentialEnvelope",
    "CredentialKey",
    "CredentialKeyAlg",
    "CredentialKeyKty",
    "CredentialKind",
    "CredentialListEnvelope",
    "CredentialListResult",
    "CredentialNullTest",
    "CredentialNullTestFieldName",
    "CredentialNullTestOperator",
    "CredentialStatus",
    "CredentialSummary",
    "CredentialTextComparison",
    "CredentialTextComparisonFieldName",
    "CredentialTextComparisonOperator",
    "CredentialTextIn",
    "CredentialTextInFieldName",
    "CredentialTextInOperator",
    "CredentialTextLike",
    "CredentialTextLikeFieldName",
    "CredentialTextLikeOperator",
    "DatasourceEnvelope",
    "DatasourceNullTest",
    "DatasourceNullTestFieldName",
    "DatasourceNullTestOperator",
    "DatasourceResult",
    "DatasourceTextComparison",
    "DatasourceTextComparisonFieldName",
    "DatasourceTextComparisonOperator",
    "DatasourceTextIn",
    "DatasourceTextInFieldName",
    "DatasourceTextInOperator",
    "DatasourceTextLike",
    "DatasourceTextLikeFieldName",
    "DatasourceTextLikeOperator",
    "DeletedApplication",
    "DeletedApplicationEnvelope",
    "DeletedAutomation",
    "DeletedAutomationEnvelope",
    "DeletedRecord",
    "DeletedRecordEnvelope",
    "DeletedRecordEnvelopeCode",
    "DeletedWebhookEndpoint",
    "DeletedWebhookEndpointEnvelope",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryAttemptOutcome",
    "DeliveryDatetimeComparison",
    "DeliveryDatetimeComparisonFieldName",
    "DeliveryDatetimeComparisonOperator",
    "DeliveryDatetimeIn",
    "DeliveryDatetimeInFieldName",
    "DeliveryDatetimeInOperator",
    "DeliveryIntegerComparison",
    "DeliveryIntegerComparisonFieldName",
    "DeliveryIntegerComparisonOperator",
    "DeliveryIntegerIn",
    "DeliveryIntegerInFieldName",
    "DeliveryIntegerInOperator",
    "DeliveryListEnvelope",
    "DeliveryListResult",
    "DeliveryNullTest",
    "DeliveryNullTestFieldName",
    "DeliveryNullTestOperator",
    "DeliveryStats",
    "DeliveryStatsBucket",
    "DeliveryStatsEnvelope",
    "DeliveryStatus",
    "DeliveryTextComparison",
    "DeliveryTextComparisonFieldName",
    "DeliveryTextComparisonOperator",
    "DeliveryTextIn",
    "DeliveryTextInFieldName",
    "DeliveryTextInOperator",
    "DeliveryTextLike",
    "DeliveryTextLikeFieldName",
    "DeliveryTextLikeOperator",
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
    "InstallationDatetimeComparisonFieldName",
    "InstallationDatetimeComparisonOperator",
    "InstallationDatetimeIn",
    "InstallationDatetimeInFieldName",
    "InstallationDatetimeInOperator",
    "InstallationEnvelope",
    "InstallationEvent",
    "InstallationEventData",
    "InstallationEvents",
    "InstallationEventsEnvelope",
    "InstallationListEnvelope",
    "InstallationListResult",
    "InstallationNullTest",
    "InstallationNullTestFieldName",
    "InstallationNullTestOperator",
    "InstallationStatus",
    "InstallationTextComparison",
    "InstallationTextComparisonFieldName",
    "InstallationTextComparisonOperator",
    "InstallationTextIn",
    "InstallationTextInFieldName",
    "InstallationTextInOperator",
    "InstallationTextLike",
    "InstallationTextLikeFieldName",
    "InstallationTextLikeOperator",
    "InternalErrorEnvelope",
    "InternalErrorEnvelopeCode",
    "InventoryStockInsCreateCommandAction",
    "InventoryStockInsCreateCommandActionCommand",
    "InventoryStockInsCreateCommandActionInput",
    "InventoryStockInsCreateCommandActionKind",
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
    "ListDatasourceItemsSortField",
    "ListDatasourceItemsSortOrder",
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
    "MemberDatetimeComparison",
    "MemberDatetimeComparisonFieldName",
    "MemberDatetimeComparisonOperator",
    "MemberDatetimeIn",
    "MemberDatetimeInFieldName",
    "MemberDatetimeInOperator",
    "MemberListEnvelope",
    "MemberListResult",
    "MemberNullTest",
    "MemberNullTestFieldName",
    "MemberNullTestOperator",
    "MemberRole",
    "MemberTextComparison",
    "MemberTextComparisonFieldName",
    "MemberTextComparisonOperator",
    "MemberTextIn",
    "MemberTextInFieldName",
    "MemberTextInOperator",
    "MemberTextLike",
    "MemberTextLikeFieldName",
    "MemberTextLikeOperator",
    "OkpPublicJwk",
    "OkpPublicJwkAlg",
    "OkpPublicJwkCrv",
    "OkpPublicJwkKty",
    "OkpPublicJwkUse",
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
    "Role",
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
    "SearchAuditSortField",
    "SearchAuditSortOrder",
    "Session",
    "SessionEnvelope",
    "StatsWindow",
    "StockIn",
    "StockInCommandEnvelope",
    "StockInCommandEnvelopeCode",
    "StockInCreatePayload",
    "StockInsCreateRequest",
    "StockInsCreateSessionAction",
    "StockInsCreateSessionActionCommand",
    "StockInsCreateSessionActionKind",
    "StockInsCreateSessionActionPayload",
    "StockInsDatetimeComparison",
    "StockInsDatetimeComparisonFieldName",
    "StockInsDatetimeComparisonOperator",
    "StockInsDatetimeIn",
    "StockInsDatetimeInFieldName",
    "StockInsDatetimeInOperator",
    "StockInsDeleteRequest",
    "StockInsDeleteRequestOperationType",
    "StockInsDeleteSessionAction",
    "StockInsDeleteSessionActionCommand",
    "StockInsDeleteSessionActionKind",
    "StockInsIntegerComparison",
    "StockInsIntegerComparisonFieldName",
    "StockInsIntegerComparisonOperator",
    "StockInsIntegerIn",
    "StockInsIntegerInFieldName",
    "StockInsIntegerInOperator",
    "StockInsListEnvelope",
    "StockInsListQuery",
    "StockInsListQuerySortField",
    "StockInsListQuerySortOrder",
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
    "StockInsUpdateSessionAction",
    "StockInsUpdateSessionActionCommand",
    "StockInsUpdateSessionActionKind",
    "StockInsUpdateSessionActionPayload",
    "StockInUpdatePayload",
    "SwitchTenantRequest",
    "TenantMembership",
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
    "WebhookEndpointDatetimeComparisonFieldName",
    "WebhookEndpointDatetimeComparisonOperator",
    "WebhookEndpointDatetimeIn",
    "WebhookEndpointDatetimeInFieldName",
    "WebhookEndpointDatetimeInOperator",
    "WebhookEndpointEnvelope",
    "WebhookEndpointIntegerComparison",
    "WebhookEndpointIntegerComparisonFieldName",
    "WebhookEndpointIntegerComparisonOperator",
    "WebhookEndpointIntegerIn",
    "WebhookEndpointIntegerInFieldName",
    "WebhookEndpointIntegerInOperator",
    "WebhookEndpointListEnvelope",
    "WebhookEndpointListResult",
    "WebhookEndpointNullTest",
    "WebhookEndpointNullTestFieldName",
    "WebhookEndpointNullTestOperator",
    "WebhookEndpointTextComparison",
    "WebhookEndpointTextComparisonFieldName",
    "WebhookEndpointTextComparisonOperator",
    "WebhookEndpointTextIn",
    "WebhookEndpointTextInFieldName",
    "WebhookEndpointTextInOperator",
    "WebhookEndpointTextLike",
    "WebhookEndpointTextLikeFieldName",
    "WebhookEndpointTextLikeOperator",
    "WebhookEventType",
    "WebhookSignatureFormat",
)
