import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { INBOX_REASONS, type InboxItem, type InboxReason } from './ports/support.js';
import type { List } from '../schemas/responses.js';
import type { RequestContext, ServiceDeps } from '../context.js';
import { encodeCursor } from '../cursors.js';

/** An inbox cursor is the (time, id) of the last item shown. */
function decodeInboxCursor(cursor: string): { at: string; id: string } | null {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  return at && id && extra === undefined && !Number.isNaN(Date.parse(at)) ? { at, id } : null;
}

/**
 * The inbox: what needs a human in a workspace — SLA breaches, open tickets, conversations with a
 * thumbs-down, and conversations with an answer that cited nothing — newest first. A conversation
 * handed off to a ticket appears through its ticket only.
 */
export function createInboxService(deps: ServiceDeps) {
  return {
    async list(ctx: RequestContext, query: { reason?: InboxReason[] | undefined; cursor?: string | undefined; limit: number }): Promise<Result<List<InboxItem>, PanyaError>> {
      const after = query.cursor === undefined ? undefined : decodeInboxCursor(query.cursor);
      if (after === null) return err(errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]));
      const reasons = query.reason ? [...new Set(query.reason)] : INBOX_REASONS;
      const page = await deps.store.inbox.list(ctx.scope, { reasons }, { limit: query.limit, ...(after ? { after } : {}) });
      const last = page.items.at(-1);
      return ok({ data: page.items, hasMore: page.nextCursor !== null, nextCursor: page.nextCursor && last ? encodeCursor(`${last.at}|${last.id}`) : null });
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
