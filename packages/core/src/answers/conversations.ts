import { err, ok, type Result } from 'neverthrow';
import { errors, isPanyaError, type PanyaError } from '../errors.js';
import type { ConversationRecord, MessageRecord } from './ports/conversations.js';
import type { DisqualifyOutcome, DisqualifyReason } from '../billing/ports/resolutions.js';
import type { Page, Scope } from '../ports/store.js';
import type { ConversationJson, MessageJson } from './conversation-schemas.js';
import { MAX_TAGS } from './conversation-schemas.js';
import type { List } from '../schemas/responses.js';
import { disqualifyResolution } from '../billing/resolutions.js';
import { runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { createLongPollSlots } from './stream-slots.js';
import { recordFeedback } from '../insights/insights.js';

/**
 * Takes a conversation out of the resolutions: a thumbs-down or a ticket (hand-off to a human)
 * disqualifies the whole conversation. Support calls only this; it sets the flag and refunds a
 * resolution already counted through billing's refund hook. Null when the conversation is not in scope.
 */
export async function disqualifyConversation(deps: Pick<ServiceDeps, 'store' | 'clock' | 'logger'>, scope: Scope, conversationId: string, reason: DisqualifyReason): Promise<DisqualifyOutcome | null> {
  const outcome = await disqualifyResolution(deps.store, scope, conversationId, reason, deps.clock.now());
  // A hand-off means the answers did not do: its questions count as content gaps.
  if (reason === 'ticket') await deps.store.questions.mark(scope, { conversationId }, { handedOff: true });
  if (outcome) deps.logger.info('conversation disqualified', { conversationId, reason, resolution: outcome });
  return outcome;
}

/** A conversation's opening question as a list shows it: one line, at most 200 characters. */
const FIRST_QUESTION = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};

/** A conversation as the API shows it: no tenant id, its status spelled out. */
export function publicConversation({ tenantId: _tenant, startedBy: _startedBy, ...c }: ConversationRecord): ConversationJson {
  return { ...c, status: c.handedOff ? 'handed_off' : 'open' };
}

export function publicMessage({ tenantId: _tenant, workspaceId: _workspace, ...m }: MessageRecord): MessageJson {
  return m;
}

/** Wakes pollers of a conversation when a message is added on this node. */
export interface MessageSignal {
  notify(conversationId: string): void;
  /** Resolves on the next message of the conversation, after `ms`, or when `signal` aborts. */
  wait(conversationId: string, ms: number, signal?: AbortSignal): Promise<void>;
}

export function createMessageSignal(): MessageSignal {
  const waiting = new Map<string, Set<() => void>>();
  return {
    notify(conversationId) {
      const wakers = waiting.get(conversationId);
      if (!wakers) return;
      waiting.delete(conversationId);
      for (const wake of wakers) wake();
    },
    wait(conversationId, ms, signal) {
      return new Promise((resolve) => {
        let wakers = waiting.get(conversationId);
        if (!wakers) waiting.set(conversationId, (wakers = new Set()));
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          wakers.delete(done);
          if (wakers.size === 0 && waiting.get(conversationId) === wakers) waiting.delete(conversationId);
          resolve();
        };
        const timer = setTimeout(done, ms);
        wakers.add(done);
        if (signal?.aborted) done();
        else signal?.addEventListener('abort', done, { once: true });
      });
    },
  };
}

/** A poll re-reads the store at least this often: messages written by another node wake no local signal. */
const POLL_RECHECK_MS = 1_000;
/** Messages one poll returns at most. */
const POLL_PAGE = 100;

const cursorError = () => errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]);

function toList<T, U>(page: Page<T>, map: (item: T) => U): List<U> {
  return { data: page.items.map(map), hasMore: page.nextCursor !== null, nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null };
}

export interface ListConversationsQuery {
  status?: 'open' | 'handed_off' | undefined;
  tag?: string | undefined;
  since?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/**
 * Conversations (chat history) for support: listing, messages, CSAT, tags, long-poll, and
 * feedback on answers. Inputs arrive validated by the operation table; scope is checked there.
 */
export function createConversationService(deps: ServiceDeps & { messages: MessageSignal }) {
  /** Long-polls waiting on this node, per key, tenant and public visitor: each holds a connection. */
  const waiting = createLongPollSlots();
  const { store, clock } = deps;

  async function find(ctx: RequestContext, id: string): Promise<Result<ConversationRecord, PanyaError>> {
    const conversation = await store.conversations.get(ctx.scope, id);
    return conversation ? ok(conversation) : err(errors.notFound('Conversation'));
  }

  return {
    get: find,

    async list(ctx: RequestContext, query: ListConversationsQuery): Promise<Result<List<ConversationJson>, PanyaError>> {
      const after = decodeCursor(query.cursor, 'conv_');
      if (after === false) return err(cursorError());
      const page = await store.conversations.list(
        ctx.scope,
        { ...(query.status ? { handedOff: query.status === 'handed_off' } : {}), ...(query.tag ? { tag: query.tag } : {}), ...(query.since ? { since: new Date(query.since).toISOString() } : {}) },
        { limit: query.limit, ...(after ? { after } : {}) },
      );
      // Each listed conversation with its opening question (one bounded read per item of the page).
      const list = toList(page, publicConversation);
      const openings = await Promise.all(list.data.map(async (c) => (await store.conversations.messagesAfter(ctx.scope, c.id, { limit: 1 })).items[0]));
      return ok({ ...list, data: list.data.map((c, i) => ({ ...c, firstQuestion: openings[i]?.role === 'user' ? FIRST_QUESTION(openings[i]!.content) : null })) });
    },

    async messages(ctx: RequestContext, id: string, query: { cursor?: string | undefined; limit: number }): Promise<Result<List<MessageJson>, PanyaError>> {
      const found = await find(ctx, id);
      if (found.isErr()) return err(found.error);
      // Message cursors are plain message ids, so a page's `nextCursor` can be polled `after` too.
      const after = query.cursor;
      if (after !== undefined && !after.startsWith('msg_')) return err(cursorError());
      const page = await store.conversations.messagesAfter(ctx.scope, id, { limit: query.limit, ...(after ? { after } : {}) });
      return ok({ data: page.items.map(publicMessage), hasMore: page.nextCursor !== null, nextCursor: page.nextCursor });
    },

    /**
     * Messages after `after`, waiting up to `timeoutSeconds` for one to arrive (long-poll for
     * clients without SSE). An empty list means none came in time; `nextCursor` is the id to
     * poll after next.
     */
    async poll(ctx: RequestContext, id: string, query: { after?: string | undefined; timeout: number }, signal?: AbortSignal): Promise<Result<List<MessageJson>, PanyaError>> {
      const found = await find(ctx, id);
      if (found.isErr()) return err(found.error);
      if (query.after !== undefined) {
        const last = await store.conversations.getMessage(ctx.scope, query.after);
        if (!last || last.conversationId !== id) return err(errors.notFound('Message'));
      }
      const deadline = Date.now() + query.timeout * 1000;
      let slot: { release(): void } | null = null;
      try {
        for (;;) {
          const page = await store.conversations.messagesAfter(ctx.scope, id, { limit: POLL_PAGE, ...(query.after ? { after: query.after } : {}) });
          const left = deadline - Date.now();
          if (page.items.length > 0 || left <= 0 || signal?.aborted) {
            const last = page.items.at(-1)?.id ?? query.after ?? null;
            return ok({ data: page.items.map(publicMessage), hasMore: page.nextCursor !== null, nextCursor: last });
          }
          // Only a poll that waits holds a slot.
          if (!slot) {
            const taken = waiting.acquire(ctx);
            if (isPanyaError(taken)) return err(taken);
            slot = taken;
          }
          await deps.messages.wait(id, Math.min(left, POLL_RECHECK_MS), signal);
        }
      } finally {
        slot?.release();
      }
    },

    async csat(ctx: RequestContext, id: string, input: { score: number; comment?: string | undefined }): Promise<Result<ConversationJson, PanyaError>> {
      const updated = await store.conversations.setCsat(ctx.scope, id, { score: input.score, comment: input.comment || null, at: clock.now().toISOString() });
      return updated ? ok(publicConversation(updated)) : err(errors.notFound('Conversation'));
    },

    async tags(ctx: RequestContext, id: string): Promise<Result<{ tags: string[] }, PanyaError>> {
      return (await find(ctx, id)).map((c) => ({ tags: c.tags }));
    },

    async changeTags(ctx: RequestContext, id: string, change: { add?: string[]; remove?: string[] }): Promise<Result<{ tags: string[] }, PanyaError>> {
      const updated = await store.conversations.updateTags(ctx.scope, id, { add: change.add ?? [], remove: change.remove ?? [] }, MAX_TAGS);
      if (updated === null) return err(errors.notFound('Conversation'));
      if (updated === 'too_many') return err(errors.unprocessable(`A conversation has at most ${MAX_TAGS} tags.`, [{ path: 'tags', message: `at most ${MAX_TAGS} tags per conversation` }]));
      return ok({ tags: updated.tags });
    },

    /**
     * Feedback on an answer. A thumbs-down disqualifies the whole conversation from being a
     * resolution (and refunds one already counted); a later thumbs-up does not undo that.
     */
    async feedback(ctx: RequestContext, messageId: string, input: { rating: 'up' | 'down'; comment?: string | undefined }): Promise<Result<MessageJson, PanyaError>> {
      return runInTransaction(store, async (tx) => {
        const message = await tx.conversations.getMessage(ctx.scope, messageId);
        if (!message) return err(errors.notFound('Message'));
        if (message.role !== 'assistant') return err(errors.unprocessable('Feedback is given on answers, not on questions.', [{ path: 'id', message: 'not an assistant message' }]));
        const updated = await tx.conversations.setFeedback(ctx.scope, messageId, { rating: input.rating, comment: input.comment || null, at: clock.now().toISOString() });
        if (!updated) return err(errors.notFound('Message'));
        await recordFeedback(tx, deps.ids, ctx.scope, message, updated.feedback!);
        if (input.rating === 'down') await disqualifyConversation({ ...deps, store: tx }, ctx.scope, message.conversationId, 'thumbs_down');
        return ok(publicMessage(updated));
      });
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
