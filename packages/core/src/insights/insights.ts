import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { maskPersonalData } from '../insights/mask-personal-data.js';
import type { Citation, MessageRecord } from '../answers/ports/conversations.js';
import type { AnswerOutcome, CitedPassage, FeedbackRecord } from './ports/insights.js';
import type { Scope, Store } from '../ports/store.js';
import type { List } from '../schemas/responses.js';
import { GAP_PERIOD_DAYS, type DocumentFeedbackJson, type FeedbackJson, type GapPeriod, type GapsJson, type ListFeedbackQuery } from './schemas.js';
import { requireScope, type RequestContext, type ServiceDeps } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';

/** Computed gaps older than this are recomputed when asked for. */
export const GAPS_STALE_MS = 60 * 60_000;
/** An answer with citations for fewer than this share of its sentences is weakly grounded. */
export const GROUNDED_SHARE = 0.5;

const DAY_MS = 86_400_000;
const MARKER = /\[\d{1,3}\]/;

export interface Evidence {
  outcome: AnswerOutcome;
  groundedSentences: number;
  sentences: number;
}

/** Sentences of an answer and how many carry a citation marker; the outcome they add up to. */
export function answerEvidence(text: string, citations: readonly Citation[]): Evidence {
  // A marker closes the sentence it supports, so a unit ends after a run of markers or at a line break.
  const units = text.split(/(?<=\])(?!\s*\[)|\n+|(?<=[.!?])\s+(?=\S)/u).map((u) => u.trim()).filter((u) => u.length > 1);
  const sentences = units.length;
  const groundedSentences = units.filter((u) => MARKER.test(u)).length;
  const outcome: AnswerOutcome = citations.length === 0 ? 'refused' : groundedSentences < sentences * GROUNDED_SHARE ? 'low_evidence' : 'answered';
  return { outcome, groundedSentences, sentences };
}

/** The cited passages with the version of their document the answer read. */
async function citedPassages(store: Store, scope: Scope, citations: readonly Pick<Citation, 'documentId' | 'chunkId'>[]): Promise<CitedPassage[]> {
  if (citations.length === 0) return [];
  const docs = await store.questions.documentVersions(scope, [...new Set(citations.map((c) => c.documentId))]);
  return citations.map((c) => ({ documentId: c.documentId, chunkId: c.chunkId, documentVersion: docs.get(c.documentId) ?? '' }));
}

export interface AnsweredQuestion {
  question: string;
  source: 'answer' | 'chat';
  answer: string;
  citations: readonly Citation[];
  topScore: number | null;
  conversationId?: string;
  messageId?: string;
}

/**
 * Logs a question with its evidence strength, masked of personal data. Best effort: a failure is
 * logged and the answer stands.
 */
export async function recordQuestion(deps: ServiceDeps, scope: Scope, asked: AnsweredQuestion): Promise<void> {
  try {
    const evidence = answerEvidence(asked.answer, asked.citations);
    await deps.store.questions.record({
      id: deps.ids.next('qst'),
      tenantId: scope.tenantId,
      workspaceId: scope.workspaceId,
      question: maskPersonalData(asked.question).slice(0, 2000),
      source: asked.source,
      ...evidence,
      topScore: asked.topScore,
      conversationId: asked.conversationId ?? null,
      messageId: asked.messageId ?? null,
      citations: await citedPassages(deps.store, scope, asked.citations),
      thumbsDown: false,
      handedOff: false,
      createdAt: deps.clock.now().toISOString(),
    });
  } catch (error) {
    deps.logger.warn('question log write failed', { error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Keeps feedback on an answer with the passages it cited and their document versions (from the
 * question log, else the message's citations at today's versions); a thumbs-down marks the
 * question as a gap. Runs inside the feedback's transaction.
 */
export async function recordFeedback(tx: Store, ids: ServiceDeps['ids'], scope: Scope, message: MessageRecord, feedback: { rating: 'up' | 'down'; comment: string | null; at: string }): Promise<void> {
  const logged = await tx.questions.byMessage(scope, message.id);
  const citations = logged?.citations.length ? logged.citations : await citedPassages(tx, scope, message.citations);
  await tx.feedback.upsert({
    id: ids.next('fb'),
    tenantId: scope.tenantId,
    workspaceId: scope.workspaceId,
    messageId: message.id,
    conversationId: message.conversationId,
    rating: feedback.rating,
    // What the feedback list shows is masked like the question log; the message keeps the words as sent.
    comment: feedback.comment === null ? null : maskPersonalData(feedback.comment),
    question: logged?.question ?? null,
    citations: citations.map((c) => ({ ...c, addressedAt: null })),
    createdAt: feedback.at,
    updatedAt: feedback.at,
  });
  if (feedback.rating === 'down') await tx.questions.mark(scope, { messageId: message.id }, { thumbsDown: true });
}

/** The window a period covers, ending now, and the one before it. */
export function gapWindows(period: GapPeriod, now: Date): { current: { since: string; until: string }; previous: { since: string; until: string } } {
  const span = GAP_PERIOD_DAYS[period] * DAY_MS;
  const until = now.getTime();
  return {
    current: { since: new Date(until - span).toISOString(), until: new Date(until).toISOString() },
    previous: { since: new Date(until - 2 * span).toISOString(), until: new Date(until - span).toISOString() },
  };
}

function publicFeedback(record: FeedbackRecord): FeedbackJson {
  const { tenantId: _t, workspaceId: _w, citations, ...rest } = record;
  return {
    ...rest,
    citations: citations.map((c) => ({ ...c, addressedByEdit: c.addressedAt !== null })),
    // Addressed once every document it cited has been edited since.
    addressedByEdit: citations.length > 0 && citations.every((c) => c.addressedAt !== null),
  };
}

/**
 * Runs `task` once at a time on this node: a call while it runs asks for one more run after it
 * (the job's store lease keeps other nodes out; it admits its own holder twice).
 */
export function oneAtATime(task: () => Promise<unknown>, onError: (error: unknown) => void): () => void {
  let running = false;
  let again = false;
  return function start() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      do {
        again = false;
        await task().catch(onError);
      } while (again);
      running = false;
    })();
  };
}

const cursorError = () => errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]);

/**
 * Content gaps and feedback for a workspace's editors. Gaps are read from the last computation;
 * a missing or stale one is requested from the `content-gaps` job (`recompute` starts it now).
 */
export function createInsightsService(deps: ServiceDeps & { recompute?: () => void }) {
  const { store, clock } = deps;

  return {
    async gaps(ctx: RequestContext, query: { period: GapPeriod }): Promise<Result<GapsJson, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const now = clock.now();
      const stored = await store.questions.getGaps(ctx.scope, query.period);
      const stale = !stored?.computedAt || now.getTime() - Date.parse(stored.computedAt) > GAPS_STALE_MS;
      const recomputing = stale || stored?.requestedAt != null;
      if (stale) {
        await store.questions.requestGaps(ctx.scope, query.period, now.toISOString(), new Date(now.getTime() - GAPS_STALE_MS).toISOString());
        // Started at once on this node (the job's lease keeps it to one run); else the schedule takes it.
        deps.recompute?.();
      }
      return ok({
        period: query.period,
        computedAt: stored?.computedAt ?? null,
        stale,
        recomputing,
        questions: stored?.questions ?? 0,
        data: (stored?.clusters ?? []) as GapsJson['data'],
      });
    },

    async feedback(ctx: RequestContext, query: ListFeedbackQuery): Promise<Result<List<FeedbackJson>, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const after = decodeCursor(query.cursor, 'fb_');
      if (after === false) return err(cursorError());
      const since = query.period ? gapWindows(query.period, clock.now()).current.since : query.since ? new Date(query.since).toISOString() : undefined;
      const page = await store.feedback.list(
        ctx.scope,
        {
          ...(query.rating ? { rating: query.rating } : {}),
          ...(query.hasComment !== undefined ? { hasComment: query.hasComment } : {}),
          ...(query.documentId ? { documentId: query.documentId } : {}),
          ...(since ? { since } : {}),
          ...(query.until ? { until: new Date(query.until).toISOString() } : {}),
        },
        { limit: query.limit, ...(after ? { after } : {}) },
      );
      return ok({ data: page.items.map(publicFeedback), hasMore: page.nextCursor !== null, nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null });
    },

    async documentFeedback(ctx: RequestContext, documentId: string): Promise<Result<DocumentFeedbackJson, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const doc = await store.documents.get(ctx.scope, documentId);
      if (!doc) return err(errors.notFound('Document'));
      const chunks = await store.feedback.negativeChunks(ctx.scope, documentId, 100);
      // The passage as it reads now, while the chunk still exists (an edit re-chunks the document).
      const texts = new Map((await store.search.getChunks(ctx.scope, chunks.map((c) => c.chunkId))).map((c) => [c.id, c]));
      return ok({
        documentId,
        version: doc.updatedAt,
        negative: chunks.reduce((n, c) => n + c.negative, 0),
        chunks: chunks.map((c) => ({ ...c, headingPath: texts.get(c.chunkId)?.headingPath ?? null, text: texts.get(c.chunkId)?.text ?? null, current: c.documentVersion === doc.updatedAt })),
      });
    },

    /** Marks the feedback on a document's earlier versions as addressed (called after an edit of its text). */
    async documentEdited(scope: Scope, documentId: string, at: string): Promise<void> {
      await store.feedback.markAddressed(scope, documentId, at);
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;

