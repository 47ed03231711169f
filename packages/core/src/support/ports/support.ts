/** Support records beside conversations: tickets, personas, visitors, and the inbox over them. */
import type { Page } from '../../ports/page.js';
import type { Scope } from '../../ports/scope.js';

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const TICKET_STATUSES = ['open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export interface TicketRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  subject: string;
  body: string;
  priority: TicketPriority;
  status: TicketStatus;
  conversationId: string | null;
  visitorId: string | null;
  /** When the SLA of its priority runs out (from creation, or from the last reopen). */
  dueAt: string;
  /** When the SLA cron found it past `dueAt` while open; set once per SLA cycle. */
  breachedAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketComment {
  id: string;
  ticketId: string;
  tenantId: string;
  workspaceId: string;
  body: string;
  /** Who wrote it: the API key or user id. */
  author: string;
  createdAt: string;
}

export type TicketPatch = {
  status?: TicketStatus;
  closedAt?: string | null;
  dueAt?: string;
  breachedAt?: string | null;
  updatedAt: string;
};

export interface TicketStore {
  insert(ticket: TicketRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<TicketRecord | null>;
  list(scope: Scope, filter: { status?: TicketStatus; priority?: TicketPriority }, options: { after?: string; limit: number }): Promise<Page<TicketRecord>>;
  /**
   * Applies the patch only while the ticket has status `from` (a close of a closed ticket changes
   * nothing). Returns the updated record, or null when not in scope or not in `from`.
   */
  transition(scope: Scope, id: string, from: TicketStatus, patch: TicketPatch): Promise<TicketRecord | null>;
  addComment(scope: Scope, comment: TicketComment): Promise<void>;
  comments(scope: Scope, ticketId: string, limit: number): Promise<TicketComment[]>;
  /**
   * Marks up to `limit` open, unmarked tickets whose SLA ran out at or before `now` (all tenants)
   * as breached at `now`, with a conditional update: concurrent runs never mark one twice.
   * Returns the tickets this call marked.
   */
  markBreaches(now: string, limit: number): Promise<TicketRecord[]>;
}

export interface PersonaRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  name: string;
  /** How answers sound, e.g. "friendly", "formal". */
  tone: string;
  /** Extra instructions for the answer generator. */
  instructions: string;
  /** The locale answers are written in; null: the question's own. */
  locale: 'th' | 'en' | null;
  createdAt: string;
  updatedAt: string;
}

export type PersonaPatch = Partial<Pick<PersonaRecord, 'name' | 'tone' | 'instructions' | 'locale'>> & { updatedAt: string };

export interface PersonaStore {
  insert(persona: PersonaRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<PersonaRecord | null>;
  list(scope: Scope, options: { after?: string; limit: number }): Promise<Page<PersonaRecord>>;
  update(scope: Scope, id: string, patch: PersonaPatch): Promise<PersonaRecord | null>;
  delete(scope: Scope, id: string): Promise<boolean>;
}

export interface VisitorRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  name: string | null;
  /** Lower-cased; unique within a workspace (the merge key), never across workspaces. */
  email: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface VisitorStore {
  /** Throws the store's conflict error when the workspace already has a visitor with this e-mail. */
  insert(visitor: VisitorRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<VisitorRecord | null>;
  findByEmail(scope: Scope, email: string): Promise<VisitorRecord | null>;
  list(scope: Scope, options: { after?: string; limit: number; email?: string }): Promise<Page<VisitorRecord>>;
  update(scope: Scope, id: string, patch: { name?: string | null; email?: string | null; updatedAt: string }): Promise<VisitorRecord | null>;
  /** Visitors of the workspace whose e-mail is at `domain` (lower-cased), newest first. */
  listByDomain(scope: Scope, domain: string, limit: number): Promise<VisitorRecord[]>;
  /** Moves `from`'s conversations and tickets to `into` and deletes `from` (same workspace only). */
  merge(scope: Scope, from: string, into: string): Promise<void>;
}

export interface CustomerRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  /** The organisation or person the tenant serves, e.g. "Acme Co.". */
  name: string;
  /**
   * Lower-cased e-mail domain; unique within a workspace. Visitors of the workspace whose e-mail
   * is at this domain belong to this customer.
   */
  domain: string | null;
  /** The customer's id in the tenant's own systems (a CRM); unique within a workspace. */
  externalId: string | null;
  notes: string;
  createdAt: string;
  updatedAt: string;
}

export type CustomerPatch = Partial<Pick<CustomerRecord, 'name' | 'domain' | 'externalId' | 'notes'>> & { updatedAt: string };

export interface CustomerStore {
  /** Throws the store's conflict error when the workspace already has a customer with this domain or external id. */
  insert(customer: CustomerRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<CustomerRecord | null>;
  list(scope: Scope, options: { after?: string; limit: number; domain?: string; externalId?: string }): Promise<Page<CustomerRecord>>;
  /** Throws the store's conflict error like `insert`. */
  update(scope: Scope, id: string, patch: CustomerPatch): Promise<CustomerRecord | null>;
  delete(scope: Scope, id: string): Promise<boolean>;
}

/** Why an item is in the inbox, most urgent first. */
export const INBOX_REASONS = ['sla_breach', 'open_ticket', 'thumbs_down', 'ungrounded'] as const;
export type InboxReason = (typeof INBOX_REASONS)[number];

export type InboxItem = {
  reason: InboxReason;
  kind: 'ticket' | 'conversation';
  /** The ticket's or the conversation's id. */
  id: string;
  conversationId: string | null;
  ticketId: string | null;
  /** Ticket subject, or the conversation's first question. */
  title: string;
  priority: TicketPriority | null;
  /** The time the item is ordered by: breach, ticket creation, or last activity. */
  at: string;
};

export interface InboxStore {
  /**
   * What needs a human in a workspace, newest first: open tickets (breached or not), and
   * conversations not handed off that got a thumbs-down or an ungrounded answer.
   * `after` continues after the item with that (at, id).
   */
  list(scope: Scope, filter: { reasons: readonly InboxReason[] }, options: { after?: { at: string; id: string }; limit: number }): Promise<Page<InboxItem>>;
}
