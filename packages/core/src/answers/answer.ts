import { err, ok, type Result } from 'neverthrow';
import { isUpstreamError, upstreamUnavailable, type PanyaError } from '../errors.js';
import type { AnswerResponse } from '../schemas/responses.js';
import type { Generator, GeneratorUsage } from './ports/generator.js';
import type { Audiences } from '../search/ports/search-index.js';
import { answerSchema, detectLocale, type AnswerInput, type Locale } from './schemas.js';
import { parseInput } from '../schemas/validate.js';
import { audiencesOf, requireScope, type RequestContext, type ServiceDeps } from '../context.js';
import { curatedMark, type CuratedAnswerService } from './curated-answers.js';
import { numberCitations, retrieveContext, type ArticleLinks } from './grounding.js';
import { recordQuestion } from '../insights/insights.js';
import { answerLocale, findPersona, personaRequest } from './personas.js';
import type { Counted, QueryChannel, QueryService } from '../search/queries.js';
import type { SearchService } from '../search/search.js';
import { redactorFor } from '../privacy/settings.js';

export type { AnswerResponse } from '../schemas/responses.js';

/** Collects a generator's stream into text and usage. */
async function complete(generator: Generator, request: Parameters<Generator['generate']>[0]): Promise<{ text: string; usage: GeneratorUsage }> {
  let text = '';
  let usage: GeneratorUsage = { inputTokens: 0, outputTokens: 0 };
  for await (const event of generator.generate(request)) {
    if (event.type === 'delta') text += event.text;
    else usage = event.usage;
  }
  return { text: text.trim(), usage };
}

/** What answers and chat consult besides the search: the workspace's curated answers and where its articles are shown. */
export interface AnswerSources {
  curated?: Pick<CuratedAnswerService, 'match'>;
  /** The help-center base of a request's workspace (citations link published documents there). */
  articleBase?: (ctx: RequestContext) => Promise<string | null>;
}

/** The article links of a request's citations. */
export async function articleLinks(deps: ServiceDeps & AnswerSources, ctx: RequestContext): Promise<ArticleLinks | undefined> {
  if (!deps.articleBase) return undefined;
  return { base: await deps.articleBase(ctx), refs: (scope, ids) => deps.store.documents.getRefs(scope, ids) };
}

/**
 * Grounded answers with `[n]` citations; each call is a billable API query. A query that matches
 * a curated answer of the workspace gets that answer verbatim, marked `curated`, without generation.
 */
export function createAnswerService(deps: ServiceDeps & AnswerSources & { generator: Generator; search: SearchService; queries: QueryService }) {
  const { generator } = deps;

  async function answer(ctx: RequestContext, input: AnswerInput, signal?: AbortSignal, audiences?: Audiences, options: { curated?: boolean } = {}): Promise<Result<AnswerResponse, PanyaError>> {
    const persona = await findPersona(deps.store, ctx.scope, input.personaId);
    if (persona.isErr()) return err(persona.error);
    const locale = answerLocale(input, persona.value);
    const curated = options.curated === false ? null : await deps.curated?.match(ctx.scope, input.query);
    if (curated) return ok({ answer: curated.answer, citations: [], locale, grounded: true, curated: curatedMark(curated) });
    // Personal data never reaches the embedder or the generator.
    const query = redactorFor(ctx.workspace)(input.query);
    const context = await retrieveContext(deps.search, ctx.scope, query, audiences === undefined ? audiencesOf(ctx) : audiences, await articleLinks(deps, ctx));
    let generated: Awaited<ReturnType<typeof complete>>;
    try {
      generated = await complete(generator, { query, locale, context: context.passages, ...personaRequest(persona.value), ...(signal ? { signal } : {}) });
    } catch (error) {
      if (!isUpstreamError(error)) throw error;
      deps.logger.warn('answer generation failed at the model provider', { provider: error.provider, transient: error.transient, error: error.message });
      return err(upstreamUnavailable(error));
    }
    const { text, citations } = numberCitations(generated.text, context);
    await recordQuestion(deps, ctx.scope, { question: input.query, source: 'answer', answer: text, citations, topScore: context.topScore ?? null });
    return ok({ answer: text, citations, locale, grounded: citations.length > 0 });
  }

  return {
    /**
     * An answer for an already validated, authorized request, without counting it (the operation
     * table counts); the passages come from the documents the caller's audiences read (or
     * `audiences`, when given); `curated: false` generates even when a curated answer matches
     * (evaluation scores the generated answer).
     */
    generate: answer,

    async answer(ctx: RequestContext, input: AnswerInput, channel: QueryChannel = { via: 'rest' }, signal?: AbortSignal): Promise<Result<Counted<AnswerResponse>, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(answerSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      return deps.queries.counted(ctx, channel, 'answer', () => answer(ctx, parsed.value, signal));
    },
  };
}

export type AnswerService = ReturnType<typeof createAnswerService>;
