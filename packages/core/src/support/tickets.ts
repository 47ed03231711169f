import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import type { Store } from '../ports/store.js';
import type { TicketComment, TicketPriority, TicketRecord, TicketStatus } from './ports/support.js';
import type { List } from '../schemas/responses.js';
import { slaDueAt } from '../support/sla.js';
import { runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import { disqualifyConversation } from '../answers/conversations.js';
import { decodeCursor, encodeCursor } from '../cursors.js';

/** Comments shown with a ticket (the latest ones). */
const COMMENTS_SHOWN = 200;

export type TicketJson = Omit<TicketRecord, 'tenantId'>;
export type CommentJson = Omit<TicketComment, 'tenantId' | 'workspaceId'>;

export function publicTicket({ tenantId: _tenant, ...t }: TicketRecord): TicketJson {
  return t;
}

export function publicComment({ tenantId: _tenant, workspaceId: _workspace, ...c }: TicketComment): CommentJson {
  return c;
}

export interface CreateTicketInput {
  subject: string;
  body: string;
  priority: TicketPriority;
  conversationId?: string | undefined;
  visitorId?: string | undefined;
}

/**
 * Tickets: the hand-off to a human. A ticket on a conversation disqualifies it from being a
 * resolution; each ticket carries the SLA due time of its priority, which the `sla-breach` job checks.
 */
export function createTicketService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;

  async function withComments(tx: Store, ctx: RequestContext, ticket: TicketRecord) {
    const comments = await tx.tickets.comments(ctx.scope, ticket.id, COMMENTS_SHOWN);
    return { ...publicTicket(ticket), comments: comments.map(publicComment) };
  }

  /** Moves an open ticket to closed or back; a ticket already there is a conflict. */
  async function transition(ctx: RequestContext, id: string, to: TicketStatus): Promise<Result<TicketJson & { comments: CommentJson[] }, PanyaError>> {
    const now = clock.now();
    const at = now.toISOString();
    const current = await store.tickets.get(ctx.scope, id);
    if (!current) return err(errors.notFound('Ticket'));
    const patch =
      to === 'closed'
        ? { status: to, closedAt: at, updatedAt: at }
        : // A reopened ticket starts a new SLA cycle: a new due time, and a breach may be marked again.
          { status: to, closedAt: null, dueAt: slaDueAt(current.priority, now), breachedAt: null, updatedAt: at };
    const updated = await store.tickets.transition(ctx.scope, id, to === 'closed' ? 'open' : 'closed', patch);
    if (!updated) return err(errors.conflict(to === 'closed' ? 'The ticket is already closed.' : 'The ticket is already open.'));
    return ok(await withComments(store, ctx, updated));
  }

  return {
    async create(ctx: RequestContext, input: CreateTicketInput): Promise<Result<TicketJson, PanyaError>> {
      const now = clock.now();
      return runInTransaction(store, async (tx) => {
        const conversation = input.conversationId ? await tx.conversations.get(ctx.scope, input.conversationId) : null;
        if (input.conversationId && !conversation) return err(errors.notFound('Conversation'));
        if (input.visitorId && !(await tx.visitors.get(ctx.scope, input.visitorId))) return err(errors.notFound('Visitor'));
        const ticket: TicketRecord = {
          id: ids.next('tkt'),
          tenantId: ctx.scope.tenantId,
          workspaceId: ctx.scope.workspaceId,
          subject: input.subject,
          body: input.body,
          priority: input.priority,
          status: 'open',
          conversationId: conversation?.id ?? null,
          // A ticket from a conversation belongs to that conversation's visitor unless told otherwise.
          visitorId: input.visitorId ?? conversation?.visitorId ?? null,
          dueAt: slaDueAt(input.priority, now),
          breachedAt: null,
          closedAt: null,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        };
        await tx.tickets.insert(ticket);
        if (conversation) await disqualifyConversation({ ...deps, store: tx }, ctx.scope, conversation.id, 'ticket');
        return ok(publicTicket(ticket));
      });
    },

    async list(ctx: RequestContext, query: { status?: TicketStatus | undefined; priority?: TicketPriority | undefined; cursor?: string | undefined; limit: number }): Promise<Result<List<TicketJson>, PanyaError>> {
      const after = decodeCursor(query.cursor, 'tkt_');
      if (after === false) return err(errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]));
      const page = await store.tickets.list(ctx.scope, { ...(query.status ? { status: query.status } : {}), ...(query.priority ? { priority: query.priority } : {}) }, { limit: query.limit, ...(after ? { after } : {}) });
      return ok({ data: page.items.map(publicTicket), hasMore: page.nextCursor !== null, nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null });
    },

    async get(ctx: RequestContext, id: string): Promise<Result<TicketJson & { comments: CommentJson[] }, PanyaError>> {
      const ticket = await store.tickets.get(ctx.scope, id);
      return ticket ? ok(await withComments(store, ctx, ticket)) : err(errors.notFound('Ticket'));
    },

    close: (ctx: RequestContext, id: string) => transition(ctx, id, 'closed'),
    reopen: (ctx: RequestContext, id: string) => transition(ctx, id, 'open'),

    async comment(ctx: RequestContext, id: string, input: { body: string }): Promise<Result<CommentJson, PanyaError>> {
      if (!(await store.tickets.get(ctx.scope, id))) return err(errors.notFound('Ticket'));
      const comment: TicketComment = {
        id: ids.next('cmt'),
        ticketId: id,
        tenantId: ctx.scope.tenantId,
        workspaceId: ctx.scope.workspaceId,
        body: input.body,
        author: ctx.principal.id,
        createdAt: clock.now().toISOString(),
      };
      await store.tickets.addComment(ctx.scope, comment);
      return ok(publicComment(comment));
    },
  };
}

export type TicketService = ReturnType<typeof createTicketService>;

/** Most tickets one `sla-breach` run marks; the next run (a minute later) takes the rest. */
export const SLA_BREACH_BATCH = 500;

/**
 * The `sla-breach` job: marks every open ticket past its SLA due time, across all tenants (the
 * spec's tenant-wide scope), each exactly once, and reports the tickets it marked.
 */
export async function markSlaBreaches(store: Store, now: Date) {
  const marked = await store.tickets.markBreaches(now.toISOString(), SLA_BREACH_BATCH);
  return {
    breached: marked.length,
    done: marked.length < SLA_BREACH_BATCH,
    tickets: marked.map((t) => ({ id: t.id, tenantId: t.tenantId, workspaceId: t.workspaceId, priority: t.priority, dueAt: t.dueAt, breachedAt: t.breachedAt })),
  };
}
