""" Contains all the data models used in inputs/outputs """

from .asset import Asset
from .asset_page import AssetPage
from .asset_status import AssetStatus
from .assets_assign_input import AssetsAssignInput
from .assets_assign_request import AssetsAssignRequest
from .assets_assign_result import AssetsAssignResult
from .assets_assign_result_command_code import AssetsAssignResultCommandCode
from .assets_assignment_changed_event import AssetsAssignmentChangedEvent
from .assets_assignment_changed_event_schema_version import AssetsAssignmentChangedEventSchemaVersion
from .assets_assignment_changed_event_type import AssetsAssignmentChangedEventType
from .assets_assignment_changed_payload import AssetsAssignmentChangedPayload
from .assets_assignment_changed_payload_status import AssetsAssignmentChangedPayloadStatus
from .authorization_server_metadata import AuthorizationServerMetadata
from .authorization_server_metadata_grant_types_supported_item import AuthorizationServerMetadataGrantTypesSupportedItem
from .authorization_server_metadata_token_endpoint_auth_signing_alg_values_supported_item import AuthorizationServerMetadataTokenEndpointAuthSigningAlgValuesSupportedItem
from .caller_application import CallerApplication
from .caller_installation import CallerInstallation
from .caller_tenant import CallerTenant
from .credential_expiry_approaching_event import CredentialExpiryApproachingEvent
from .credential_expiry_approaching_event_schema_version import CredentialExpiryApproachingEventSchemaVersion
from .credential_expiry_approaching_event_type import CredentialExpiryApproachingEventType
from .credential_expiry_approaching_payload import CredentialExpiryApproachingPayload
from .credential_rotation_due_event import CredentialRotationDueEvent
from .credential_rotation_due_event_schema_version import CredentialRotationDueEventSchemaVersion
from .credential_rotation_due_event_type import CredentialRotationDueEventType
from .credential_rotation_due_payload import CredentialRotationDuePayload
from .environment import Environment
from .error import Error
from .error_details import ErrorDetails
from .event_accepted import EventAccepted
from .event_page import EventPage
from .introspection_request import IntrospectionRequest
from .introspection_request_client_assertion_type import IntrospectionRequestClientAssertionType
from .introspection_response import IntrospectionResponse
from .introspection_response_token_type import IntrospectionResponseTokenType
from .inventory_stock_in_created_event import InventoryStockInCreatedEvent
from .inventory_stock_in_created_event_schema_version import InventoryStockInCreatedEventSchemaVersion
from .inventory_stock_in_created_event_type import InventoryStockInCreatedEventType
from .inventory_stock_in_created_payload import InventoryStockInCreatedPayload
from .inventory_stock_ins_create_input import InventoryStockInsCreateInput
from .inventory_stock_ins_create_request import InventoryStockInsCreateRequest
from .inventory_stock_ins_create_result import InventoryStockInsCreateResult
from .inventory_stock_ins_create_result_command_code import InventoryStockInsCreateResultCommandCode
from .list_events_type_item import ListEventsTypeItem
from .o_auth_error import OAuthError
from .o_auth_error_error import OAuthErrorError
from .revocation_request import RevocationRequest
from .revocation_request_client_assertion_type import RevocationRequestClientAssertionType
from .revocation_response import RevocationResponse
from .robot_fleet_event import RobotFleetEvent
from .robot_fleet_event_schema_version import RobotFleetEventSchemaVersion
from .robot_fleet_event_type import RobotFleetEventType
from .robot_fleet_inventory_received_v1 import RobotFleetInventoryReceivedV1
from .stock_in import StockIn
from .stock_in_page import StockInPage
from .token_request import TokenRequest
from .token_request_client_assertion_type import TokenRequestClientAssertionType
from .token_request_grant_type import TokenRequestGrantType
from .token_response import TokenResponse
from .token_response_token_type import TokenResponseTokenType
from .webhook_endpoint_disabled_event import WebhookEndpointDisabledEvent
from .webhook_endpoint_disabled_event_schema_version import WebhookEndpointDisabledEventSchemaVersion
from .webhook_endpoint_disabled_event_type import WebhookEndpointDisabledEventType
from .webhook_endpoint_disabled_payload import WebhookEndpointDisabledPayload
from .who_am_i import WhoAmI

__all__ = (
    "Asset",
    "AssetPage",
    "AssetsAssignInput",
    "AssetsAssignmentChangedEvent",
    "AssetsAssignmentChangedEventSchemaVersion",
    "AssetsAssignmentChangedEventType",
    "AssetsAssignmentChangedPayload",
    "AssetsAssignmentChangedPayloadStatus",
    "AssetsAssignRequest",
    "AssetsAssignResult",
    "AssetsAssignResultCommandCode",
    "AssetStatus",
    "AuthorizationServerMetadata",
    "AuthorizationServerMetadataGrantTypesSupportedItem",
    "AuthorizationServerMetadataTokenEndpointAuthSigningAlgValuesSupportedItem",
    "CallerApplication",
    "CallerInstallation",
    "CallerTenant",
    "CredentialExpiryApproachingEvent",
    "CredentialExpiryApproachingEventSchemaVersion",
    "CredentialExpiryApproachingEventType",
    "CredentialExpiryApproachingPayload",
    "CredentialRotationDueEvent",
    "CredentialRotationDueEventSchemaVersion",
    "CredentialRotationDueEventType",
    "CredentialRotationDuePayload",
    "Environment",
    "Error",
    "ErrorDetails",
    "EventAccepted",
    "EventPage",
    "IntrospectionRequest",
    "IntrospectionRequestClientAssertionType",
    "IntrospectionResponse",
    "IntrospectionResponseTokenType",
    "InventoryStockInCreatedEvent",
    "InventoryStockInCreatedEventSchemaVersion",
    "InventoryStockInCreatedEventType",
    "InventoryStockInCreatedPayload",
    "InventoryStockInsCreateInput",
    "InventoryStockInsCreateRequest",
    "InventoryStockInsCreateResult",
    "InventoryStockInsCreateResultCommandCode",
    "ListEventsTypeItem",
    "OAuthError",
    "OAuthErrorError",
    "RevocationRequest",
    "RevocationRequestClientAssertionType",
    "RevocationResponse",
    "RobotFleetEvent",
    "RobotFleetEventSchemaVersion",
    "RobotFleetEventType",
    "RobotFleetInventoryReceivedV1",
    "StockIn",
    "StockInPage",
    "TokenRequest",
    "TokenRequestClientAssertionType",
    "TokenRequestGrantType",
    "TokenResponse",
    "TokenResponseTokenType",
    "WebhookEndpointDisabledEvent",
    "WebhookEndpointDisabledEventSchemaVersion",
    "WebhookEndpointDisabledEventType",
    "WebhookEndpointDisabledPayload",
    "WhoAmI",
)
