import { BILLING_OPERATIONS } from './billing.js';
import { CONVERSATION_OPERATIONS } from './conversations.js';
import { SUPPORT_OPERATIONS } from './support.js';
import { DOCUMENT_OPERATIONS } from './documents.js';
import { FLOW_OPERATIONS } from './flows.js';
import { HOSTNAME_OPERATIONS } from './hostnames.js';
import { QUERY_OPERATIONS } from './queries.js';
import { TENANT_OPERATIONS } from './tenant.js';
import { TOOL_OPERATIONS } from './tools.js';
import { WORKSPACE_OPERATIONS } from './workspaces.js';
import { TENANT_SETTINGS_OPERATIONS } from './tenant-settings.js';
import { API_KEY_OPERATIONS } from './api-keys.js';
import { WIDGET_OPERATIONS } from './widget.js';
import { VISITOR_IDENTITY_OPERATIONS } from './visitor-identity.js';
import { CURATED_ANSWER_OPERATIONS } from './curated-answers.js';
import { EVAL_OPERATIONS } from './evaluation.js';
import { INSIGHT_OPERATIONS } from './insights.js';
import { PRIVACY_OPERATIONS } from './privacy.js';
import { SSO_OPERATIONS } from './sso.js';
import type { Operation } from './types.js';

export { executeOperation, type Executed, type ExecuteOptions } from './execute.js';
export { defineOperation, type HttpBinding, type HttpMethod, type InputSpec, type Operation, type OperationContext, type OperationServices, type ParsedInput, type RawInput, type ToolBinding } from './types.js';

/**
 * The operation table: every REST route and MCP tool of the tenant API. The Express adapter
 * mounts each entry with an `http` binding, the MCP adapter registers each entry with a `tool`
 * binding. Adding a route is adding an entry here.
 */
export const OPERATIONS: readonly Operation[] = [...QUERY_OPERATIONS, ...DOCUMENT_OPERATIONS, ...WORKSPACE_OPERATIONS, ...HOSTNAME_OPERATIONS, ...BILLING_OPERATIONS, ...FLOW_OPERATIONS, ...TOOL_OPERATIONS, ...CONVERSATION_OPERATIONS, ...SUPPORT_OPERATIONS, ...TENANT_OPERATIONS, ...TENANT_SETTINGS_OPERATIONS, ...API_KEY_OPERATIONS, ...WIDGET_OPERATIONS, ...VISITOR_IDENTITY_OPERATIONS, ...CURATED_ANSWER_OPERATIONS, ...EVAL_OPERATIONS, ...INSIGHT_OPERATIONS, ...PRIVACY_OPERATIONS, ...SSO_OPERATIONS] as unknown as readonly Operation[];

export const HTTP_OPERATIONS = OPERATIONS.filter((op) => op.http);
export const TOOL_OPERATION_LIST = OPERATIONS.filter((op) => op.tool);
