import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import type { Scope, Store } from '../ports/store.js';
import type { VisitorRecord } from './ports/support.js';
import type { List } from '../schemas/responses.js';
import { runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';

export type VisitorJson = Omit<VisitorRecord, 'tenantId'>;

export function publicVisitor({ tenantId: _tenant, ...v }: VisitorRecord): VisitorJson {
  return v;
}

export interface VisitorDetails {
  name?: string | undefined;
  /** Lower-cased by the input schema. */
  email?: string | undefined;
}

/** Conversations listed with a visitor. */
const VISITOR_CONVERSATIONS = 100;

/**
 * Visitors: contact details captured on a conversation. The e-mail is the merge key within one
 * workspace: details with an e-mail the workspace already knows attach the conversation to that
 * visitor (folding in the conversation's earlier, anonymous visitor). Nothing is ever linked
 * across workspaces or tenants: every lookup is confined to the request's workspace.
 */
export function createVisitorService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;

  async function capture(tx: Store, scope: Scope, conversationId: string, details: VisitorDetails): Promise<Result<VisitorRecord, PanyaError>> {
    const conversation = await tx.conversations.get(scope, conversationId);
    if (!conversation) return err(errors.notFound('Conversation'));
    const now = clock.now().toISOString();
    const current = conversation.visitorId ? await tx.visitors.get(scope, conversation.visitorId) : null;
    const known = details.email ? await tx.visitors.findByEmail(scope, details.email) : null;
    const name = details.name !== undefined ? { name: details.name } : {};
    let visitor: VisitorRecord | null;
    if (known) {
      // The e-mail is known in this workspace: that visitor takes over this conversation's history.
      if (current && current.id !== known.id) await tx.visitors.merge(scope, current.id, known.id);
      visitor = details.name !== undefined ? await tx.visitors.update(scope, known.id, { ...name, updatedAt: now }) : known;
    } else if (current) {
      visitor = await tx.visitors.update(scope, current.id, { ...name, ...(details.email ? { email: details.email } : {}), updatedAt: now });
    } else {
      visitor = { id: ids.next('vis'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, name: details.name ?? null, email: details.email ?? null, createdAt: now, updatedAt: now };
      await tx.visitors.insert(visitor);
    }
    if (!visitor) return err(errors.notFound('Visitor'));
    if (conversation.visitorId !== visitor.id) await tx.conversations.setVisitor(scope, conversationId, visitor.id);
    return ok(visitor);
  }

  return {
    /**
     * Records a visitor's name and/or e-mail on a conversation. Two captures racing with a new
     * e-mail meet at the store's unique e-mail per workspace; the loser retries and merges.
     */
    async capture(ctx: RequestContext, conversationId: string, details: VisitorDetails): Promise<Result<VisitorJson, PanyaError>> {
      for (let attempt = 0; ; attempt++) {
        const captured = await runInTransaction(store, (tx) => capture(tx, ctx.scope, conversationId, details));
        if (captured.isErr() && captured.error.code === 'conflict' && attempt === 0) continue;
        return captured.map(publicVisitor);
      }
    },

    async list(ctx: RequestContext, query: { email?: string | undefined; cursor?: string | undefined; limit: number }): Promise<Result<List<VisitorJson>, PanyaError>> {
      const after = decodeCursor(query.cursor, 'vis_');
      if (after === false) return err(errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]));
      const page = await store.visitors.list(ctx.scope, { limit: query.limit, ...(after ? { after } : {}), ...(query.email ? { email: query.email } : {}) });
      return ok({ data: page.items.map(publicVisitor), hasMore: page.nextCursor !== null, nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null });
    },

    /** A visitor with the ids of their latest conversations. */
    async get(ctx: RequestContext, id: string): Promise<Result<VisitorJson & { conversationIds: string[] }, PanyaError>> {
      const visitor = await store.visitors.get(ctx.scope, id);
      if (!visitor) return err(errors.notFound('Visitor'));
      const conversations = await store.conversations.list(ctx.scope, { visitorId: id }, { limit: VISITOR_CONVERSATIONS });
      return ok({ ...publicVisitor(visitor), conversationIds: conversations.items.map((c) => c.id) });
    },
  };
}

export type VisitorService = ReturnType<typeof createVisitorService>;
