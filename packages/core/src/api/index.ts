import { BILLING_OPERATIONS } from '../billing/operations.js';
import { CONVERSATION_OPERATIONS } from '../answers/conversations-operations.js';
import { SUPPORT_OPERATIONS } from '../support/operations.js';
import { DOCUMENT_OPERATIONS } from '../knowledge/operations.js';
import { FLOW_OPERATIONS } from '../support/flows-operations.js';
import { HOSTNAME_OPERATIONS } from '../hostnames/operations.js';
import { QUERY_OPERATIONS } from '../answers/queries-operations.js';
import { TENANT_OPERATIONS } from '../hostnames/tenant-operations.js';
import { TOOL_OPERATIONS } from '../answers/tools-operations.js';
import { WORKSPACE_OPERATIONS } from '../tenancy/workspaces-operations.js';
import { TENANT_SETTINGS_OPERATIONS } from '../tenancy/tenant-settings-operations.js';
import { API_KEY_OPERATIONS } from '../tenancy/api-keys-operations.js';
import { WIDGET_OPERATIONS } from '../support/widget-operations.js';
import { VISITOR_IDENTITY_OPERATIONS } from '../tenancy/visitor-identity-operations.js';
import { CURATED_ANSWER_OPERATIONS } from '../answers/curated-answers-operations.js';
import { EVAL_OPERATIONS } from '../answers/evaluation-operations.js';
import { INSIGHT_OPERATIONS } from '../insights/operations.js';
import { PRIVACY_OPERATIONS } from '../privacy/operations.js';
import { SSO_OPERATIONS } from '../tenancy/sso-operations.js';
import type { Operation } from '../operations/types.js';

export { executeOperation, type Executed, type ExecuteOptions } from './execute.js';
export { defineOperation, type HttpBinding, type HttpMethod, type InputSpec, type Operation, type OperationContext, type OperationServices, type ParsedInput, type RawInput, type ToolBinding } from '../operations/types.js';

/**
 * The operation table: every REST route and MCP tool of the tenant API. The Express adapter
 * mounts each entry with an `http` binding, the MCP adapter registers each entry with a `tool`
 * binding. Adding a route is adding an entry here.
 */
export const OPERATIONS: readonly Operation[] = [...QUERY_OPERATIONS, ...DOCUMENT_OPERATIONS, ...WORKSPACE_OPERATIONS, ...HOSTNAME_OPERATIONS, ...BILLING_OPERATIONS, ...FLOW_OPERATIONS, ...TOOL_OPERATIONS, ...CONVERSATION_OPERATIONS, ...SUPPORT_OPERATIONS, ...TENANT_OPERATIONS, ...TENANT_SETTINGS_OPERATIONS, ...API_KEY_OPERATIONS, ...WIDGET_OPERATIONS, ...VISITOR_IDENTITY_OPERATIONS, ...CURATED_ANSWER_OPERATIONS, ...EVAL_OPERATIONS, ...INSIGHT_OPERATIONS, ...PRIVACY_OPERATIONS, ...SSO_OPERATIONS] as unknown as readonly Operation[];

export const HTTP_OPERATIONS = OPERATIONS.filter((op) => op.http);
export const TOOL_OPERATION_LIST = OPERATIONS.filter((op) => op.tool);
