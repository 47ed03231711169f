import type { Result } from 'neverthrow';
import type { z } from 'zod';
import type { PanyaError, PanyaErrorCode } from '../errors.js';
import type { QueryEventKind } from '../tenancy/ports/usage.js';
import type { ApiKeyScope } from '../ports/store.js';
import type { AnswerService } from '../answers/answer.js';
import type { ApiKeyService } from '../tenancy/api-keys.js';
import type { AccessService } from '../tenancy/access.js';
import type { BillingService } from '../billing/billing.js';
import type { CuratedAnswerService } from '../answers/curated-answers.js';
import type { EvalService } from '../answers/evaluation.js';
import type { ConversationService } from '../answers/conversations.js';
import type { InboxService } from '../support/inbox.js';
import type { InsightsService } from '../insights/insights.js';
import type { PersonaService } from '../answers/personas.js';
import type { TicketService } from '../support/tickets.js';
import type { VisitorService } from '../support/visitors.js';
import type { VisitorIdentityService } from '../tenancy/visitor-identity.js';
import type { CustomerService } from '../support/customers.js';
import type { RequestContext } from '../context.js';
import type { DocumentService } from '../knowledge/documents.js';
import type { FlowService } from '../support/flows.js';
import type { ErasureService } from '../hostnames/erasure.js';
import type { HelpCenterService } from '../hostnames/help-center.js';
import type { HostnameService } from '../hostnames/hostnames.js';
import type { SearchService } from '../search/search.js';
import type { TenantSettingsService } from '../tenancy/tenant-settings.js';
import type { WorkspaceService } from '../tenancy/workspaces.js';
import type { AuditService } from '../audit/audit.js';
import type { PrivacyService } from '../privacy/privacy.js';
import type { SsoService } from '../tenancy/sso.js';

/** The services an operation may call. */
export interface OperationServices {
  documents: DocumentService;
  search: SearchService;
  answers: AnswerService;
  workspaces: WorkspaceService;
  hostnames: HostnameService;
  billing: BillingService;
  flows: FlowService;
  conversations: ConversationService;
  tickets: TicketService;
  personas: PersonaService;
  visitors: VisitorService;
  visitorIdentity: VisitorIdentityService;
  customers: CustomerService;
  inbox: InboxService;
  insights: InsightsService;
  erasure: ErasureService;
  settings: TenantSettingsService;
  audit: AuditService;
  privacy: PrivacyService;
  sso: SsoService;
  apiKeys: ApiKeyService;
  helpCenter: HelpCenterService;
  curatedAnswers: CuratedAnswerService;
  evals: EvalService;
}

/** What an operation runs with: the authenticated request, the services, and the caller's abort signal. */
export interface OperationContext {
  request: RequestContext;
  services: OperationServices;
  signal?: AbortSignal | undefined;
}

/**
 * The parts of a request an operation reads, each validated on its own (so error paths name the
 * field as the caller sent it): path parameters, the query string and the body. MCP tools take
 * their arguments as the body.
 */
export interface InputSpec {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

export type ParsedInput<I extends InputSpec> = { [K in keyof I]: I[K] extends z.ZodType ? z.output<I[K]> : never };
export type RawInput = { params?: unknown; query?: unknown; body?: unknown };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A REST route: `path` is relative to every tenant API root (`/api`, `/c/{tenant}/api`, …). */
export interface HttpBinding<I extends InputSpec, O> {
  method: HttpMethod;
  path: string;
  /** Default 200. */
  status?: number | ((input: ParsedInput<I>, output: O) => number);
  /** The `Location` of what was created, relative to the API root. */
  location?: (output: O) => string;
}

/** An MCP tool: its name is the operation id. */
export interface ToolBinding {
  title: string;
  description: string;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

/**
 * One entry of the operation table: what a route or tool accepts and answers, who may call it,
 * whether it is a billable query, and what it does. Adapters only translate to and from it.
 */
export interface Operation<I extends InputSpec = InputSpec, O extends z.ZodType = z.ZodType> {
  id: string;
  http?: HttpBinding<I, z.output<O>>;
  tool?: ToolBinding;
  /** The API-key scope (or role-derived scope of a user) the caller needs. */
  scope: ApiKeyScope;
  /**
   * Publishable keys (`svc_pub_…`, embedded in pages) may run it. Only search, answer and chat
   * set it: other read routes (conversations, visitors, …) hold data a page must not see.
   */
  acceptsPublishable?: true;
  /**
   * A billable query: takes a rate-limit unit after validation and writes one `api_query_event`
   * when it succeeds (or fails with one of `countedFailures`: a call made, even if it found nothing).
   */
  counted: QueryEventKind | false;
  countedFailures?: readonly PanyaErrorCode[];
  input: I;
  output: O;
  /**
   * An operation that names its workspace in its input rather than its path (Dify's
   * `knowledge_id`): the authenticated caller, re-addressed, before anything else runs.
   */
  address?(deps: { access: AccessService }, ctx: RequestContext, raw: RawInput): Promise<Result<RequestContext, PanyaError>>;
  run(ctx: OperationContext, input: ParsedInput<I>): Promise<Result<z.output<O>, PanyaError>>;
}

/** Declares an operation with its input and output types inferred from the schemas. */
export function defineOperation<I extends InputSpec, O extends z.ZodType>(operation: Operation<I, O>): Operation<I, O> {
  return operation;
}
