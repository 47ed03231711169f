/**
 * The partial index behind core's billable predicate (`BILLABLE_CONVERSATION`): its WHERE clause
 * is the rule rendered for the store, never a copy, and its name is derived from the rule, so a
 * changed rule is a new index (and a new kit step that builds it on every store).
 */
import { BILLABLE_CONVERSATION } from '../billing/resolutions.js';
import { rowCodec } from './codec.js';
import type { IndexSpec } from './ddl.js';
import type { ConversationRecord } from '../answers/ports/conversations.js';
import type { RenderContext } from './sql.js';
import { CONVERSATIONS } from './tables.js';

/** FNV-1a, 32 bits, as 8 hex digits: a short stable tag for a name (not a secret). */
function tag(text: string): string {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The predicate in one canonical text (flags sorted by field), whatever order core wrote them in. */
const canonical = Object.entries(BILLABLE_CONVERSATION)
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([field, value]) => `${field}=${String(value)}`)
  .join(',');

/** Core's billable predicate as a store's SQL writes it (the dialect's boolean literals), for the conversation aliased `alias`. */
export function billableWhere(ctx: RenderContext, alias?: string): string {
  return rowCodec(CONVERSATIONS, ctx.dialect).where(BILLABLE_CONVERSATION, alias);
}

/** Billable conversations by last activity: what the resolution detector and the usage count walk. */
export const BILLABLE_INDEX: IndexSpec<ConversationRecord> = {
  name: `conversations_billable_${tag(canonical)}`,
  fields: ['lastMessageAt'],
  where: (ctx) => billableWhere(ctx),
};

/** The index the numbered migrations created with a copy of the predicate. */
export const LEGACY_BILLABLE_INDEX = 'conversations_billable';
