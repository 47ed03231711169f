import { err, ok, type Result } from 'neverthrow';
import { errors, isPanyaError, isUpstreamError, upstreamUnavailable, type PanyaError } from '../errors.js';
import { condenseQuery } from './condense.js';
import { ANSWER_INTERRUPTED } from '../messages.js';
import type { Citation, ConversationStarter } from './ports/conversations.js';
import type { ChatTurn, Generator, GeneratorUsage } from './ports/generator.js';
import type { ChatEvent } from '../schemas/responses.js';
import { chatSchema, detectLocale, type ChatInput } from './schemas.js';
import { parseInput } from '../schemas/validate.js';
import { verifiedVisitor } from '../tenancy/visitor-identity.js';
import { audiencesOf, requireScope, type RequestContext, type ServiceDeps } from '../context.js';
import { articleLinks, type AnswerSources } from './answer.js';
import { curatedMark } from './curated-answers.js';
import { CitationNumbering, retrieveContext } from './grounding.js';
import { recordQuestion } from '../insights/insights.js';
import type { LimitsService, RateLimitStatus } from '../billing/limits.js';
import type { MessageSignal } from './conversations.js';
import { answerLocale, findPersona, personaRequest } from './personas.js';
import type { SearchService } from '../search/search.js';
import { createStreamSlots, type StreamSlots } from './stream-slots.js';
import { redactorFor } from '../privacy/settings.js';

/** Turns of history a follow-up is condensed with and the generator sees. */
const HISTORY_TURNS = 10;

export type { ChatEvent } from '../schemas/responses.js';

export interface ChatStream {
  conversationId: string;
  rateLimit: RateLimitStatus | null;
  /** The events of one answer; stops (storing no partial answer) when `signal` aborts. */
  events: AsyncIterable<ChatEvent>;
}

/**
 * Streaming multi-turn chat. Everything that can refuse the request (scope, input, hard cap,
 * rate limit, unknown conversation) is decided before the stream starts, so HTTP can still
 * answer with a status code; failures after that arrive as an `error` event.
 */
export function createChatService(deps: ServiceDeps & AnswerSources & { generator: Generator; search: SearchService; limits: LimitsService; messages?: MessageSignal; streamSlots?: StreamSlots }) {
  const { store, clock, ids, logger, generator } = deps;
  const slots = deps.streamSlots ?? createStreamSlots();

  return {
    async chat(ctx: RequestContext, input: ChatInput, signal?: AbortSignal): Promise<Result<ChatStream, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(chatSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const { conversationId } = parsed.value;
      // Personal data is replaced before the message is stored, searched or sent to the generator.
      const redact = redactorFor(ctx.workspace);
      const query = redact(parsed.value.query);
      const found = await findPersona(store, ctx.scope, parsed.value.personaId);
      if (found.isErr()) return err(found.error);
      const persona = found.value;
      const locale = answerLocale(parsed.value, persona);

      const startedBy: ConversationStarter = ctx.principal.publishable ? 'public' : 'private';
      const stored = conversationId ? await store.conversations.get(ctx.scope, conversationId) : null;
      // A public key continues only a public conversation: another's answers exactly like a missing one,
      // so its earlier questions never reach the page.
      const existing = stored && (startedBy === 'private' || stored.startedBy === 'public') ? stored : null;
      if (conversationId && !existing) return err(errors.notFound('Conversation'));
      // A verified visitor's conversations are theirs: with their record, continued by them alone.
      const own = ctx.identity && startedBy === 'public' ? await verifiedVisitor(deps, ctx.scope, ctx.identity) : null;
      if (existing && startedBy === 'public' && existing.visitorId && existing.visitorId !== own && (await store.verifiedVisitors.isVerified(ctx.scope, existing.visitorId))) {
        return err(errors.notFound('Conversation'));
      }
      // The stream's slot is held until its events end; every way out before that gives it back.
      const slot = slots.acquire(ctx);
      if (isPanyaError(slot)) return err(slot);
      try {
        const stream = await start(slot);
        if (stream.isErr()) slot.release();
        return stream;
      } catch (error) {
        slot.release();
        throw error;
      }

      async function start(slot: { release(): void }): Promise<Result<ChatStream, PanyaError>> {
        const capped = await deps.limits.checkChatCap(ctx);
        if (capped.isErr()) return err(capped.error);
        const taken = await deps.limits.take(ctx, 'query');
        if (taken.isErr()) return err(taken.error);

        const now = clock.now().toISOString();
        const conversation = existing ?? {
          id: ids.next('conv'),
          tenantId: ctx.scope.tenantId,
          workspaceId: ctx.scope.workspaceId,
          locale,
          hasGroundedAnswer: false,
          hasThumbsDown: false,
          handedOff: false,
          createdAt: now,
          lastMessageAt: now,
          startedBy,
        };
        if (!existing) await store.conversations.insert(conversation);
        if (own && !existing?.visitorId) await store.conversations.setVisitor(ctx.scope, conversation.id, own);
        const history: ChatTurn[] = (await store.conversations.messages(ctx.scope, conversation.id, HISTORY_TURNS)).map((m) => ({ role: m.role, content: m.content }));
        await store.conversations.appendMessage(ctx.scope, { id: ids.next('msg'), conversationId: conversation.id, tenantId: ctx.scope.tenantId, workspaceId: ctx.scope.workspaceId, role: 'user', content: query, citations: [], grounded: null, createdAt: now });
        deps.messages?.notify(conversation.id);
        const messageId = ids.next('msg');

        async function* events(): AsyncGenerator<ChatEvent> {
          try {
            yield { event: 'meta', data: { conversationId: conversation.id, messageId } };
            const standalone = history.length === 0 ? query : generator.condense ? await generator.condense(query, history, signal) : condenseQuery(query, history);
            const curated = await deps.curated?.match(ctx.scope, standalone);
            if (curated) {
              // The approved text as written, in one piece: it is never re-generated or paraphrased.
              yield { event: 'delta', data: { text: curated.answer } };
              await store.conversations.appendMessage(ctx.scope, { id: messageId, conversationId: conversation.id, tenantId: ctx.scope.tenantId, workspaceId: ctx.scope.workspaceId, role: 'assistant', content: curated.answer, citations: [], grounded: true, createdAt: clock.now().toISOString() });
              deps.messages?.notify(conversation.id);
              yield { event: 'done', data: { usage: { inputTokens: 0, outputTokens: 0 }, grounded: true, query: standalone, curated: curatedMark(curated) } };
              return;
            }
            const context = await retrieveContext(deps.search, ctx.scope, standalone, audiencesOf(ctx), await articleLinks(deps, ctx));
            const numbering = new CitationNumbering(context);
            let text = '';
            let usage: GeneratorUsage = { inputTokens: 0, outputTokens: 0 };
            const request = { query, locale, context: context.passages, history, ...personaRequest(persona), ...(standalone !== query ? { searchQuery: standalone } : {}), ...(signal ? { signal } : {}) };
            for await (const event of generator.generate(request)) {
              if (signal?.aborted) return;
              if (event.type === 'delta') {
                const piece = numbering.push(event.text);
                text += piece;
                if (piece) yield { event: 'delta', data: { text: piece } };
              } else usage = event.usage;
            }
            if (signal?.aborted) return;
            const rest = numbering.flush();
            text += rest;
            if (rest) yield { event: 'delta', data: { text: rest } };
            const citations = numbering.citations();
            for (const citation of citations) yield { event: 'citation', data: citation };
            await store.conversations.appendMessage(ctx.scope, {
              id: messageId,
              conversationId: conversation.id,
              tenantId: ctx.scope.tenantId,
              workspaceId: ctx.scope.workspaceId,
              role: 'assistant',
              content: redact(text.trim()),
              citations,
              grounded: citations.length > 0,
              createdAt: clock.now().toISOString(),
            });
            deps.messages?.notify(conversation.id);
            await recordQuestion(deps, ctx.scope, { question: query, source: 'chat', answer: text, citations, topScore: context.topScore ?? null, conversationId: conversation.id, messageId });
            yield { event: 'done', data: { usage, grounded: citations.length > 0, query: standalone } };
          } catch (error) {
            if (signal?.aborted) return;
            if (isUpstreamError(error)) {
              // The provider's own words go to the log; the caller learns which provider and whether to retry.
              logger.warn('chat generation failed at the model provider', { conversationId: conversation.id, provider: error.provider, transient: error.transient, error: error.message });
              const problem = upstreamUnavailable(error);
              yield { event: 'error', data: { code: problem.code, detail: problem.localized![locale], provider: error.provider, transient: error.transient } };
              return;
            }
            logger.error('chat generation failed', { conversationId: conversation.id, error: error instanceof Error ? error.message : String(error) });
            yield { event: 'error', data: { code: 'unavailable', detail: ANSWER_INTERRUPTED[locale] } };
          } finally {
            slot.release();
          }
        }

        return ok({ conversationId: conversation.id, rateLimit: taken.value, events: events() });
      }
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
