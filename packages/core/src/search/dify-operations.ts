/**
 * Dify's external knowledge API (`POST {endpoint}/retrieval`): Dify sends a query for one knowledge
 * source (`knowledge_id`, a Panya workspace) and cuts the records it gets by `score_threshold`, so
 * each record needs a score in 0..1 that means the same thing from query to query. RRF scores do
 * not (they follow ranks, and the first hit of an unrelated query scores as high as that of a
 * perfect one): the score here is calibrated from what the hit actually shares with the query.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { MAX_QUERY_CHARS } from '../bounds.js';
import { errors, type PanyaError } from '../errors.js';
import { audiencesOf } from '../context.js';
import type { SearchResult } from '../schemas/responses.js';
import type { AccessService } from '../tenancy/access.js';
import type { RequestContext } from '../context.js';
import { searchTerms } from '../text/query.js';
import { tokenize } from '../text/tokenizer.js';
import { defineOperation } from '../operations/types.js';
import { redactorFor } from '../privacy/settings.js';

/** Dify's comparison operators for `metadata_condition` (its published list). */
export const DIFY_OPERATORS = ['contains', 'not contains', 'start with', 'end with', 'is', 'is not', 'in', 'not in', 'empty', 'not empty', '=', '≠', '>', '<', '≥', '≤', 'before', 'after'] as const;

const conditionSchema = z.looseObject({
  name: z.string().min(1).max(200),
  comparison_operator: z.enum(DIFY_OPERATORS),
  value: z.union([z.string().max(1000), z.number(), z.array(z.string().max(1000)).max(100), z.null()]).optional(),
});

/** Dify's request; open objects, since Dify versions add fields (e.g. `score_threshold_enabled`). */
export const difyRetrievalSchema = z.looseObject({
  knowledge_id: z.string().trim().min(1).max(200).describe('A workspace of the key\'s tenant: its slug or id.'),
  query: z.string().trim().min(1, 'query must not be empty').max(MAX_QUERY_CHARS),
  retrieval_setting: z.looseObject({
    top_k: z.number().int().min(1).max(50),
    score_threshold: z.number().min(0).max(1).default(0).describe('Records scoring below it are left out; 0 when Dify\'s threshold is off.'),
  }),
  metadata_condition: z
    .looseObject({
      logical_operator: z.enum(['and', 'or']).default('and'),
      conditions: z.array(conditionSchema).max(20),
    })
    .optional()
    .nullable(),
});
export type DifyRetrievalRequest = z.output<typeof difyRetrievalSchema>;

export const difyRecordSchema = z.looseObject({
  content: z.string(),
  score: z.number().min(0).max(1),
  title: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});
export const difyRetrievalResponseSchema = z.looseObject({ records: z.array(difyRecordSchema) });
export type DifyRetrievalResponse = z.output<typeof difyRetrievalResponseSchema>;

/** The weight of term coverage in the score; the rest is agreement of the lexical and vector channels. */
const COVERAGE_WEIGHT = 0.85;

/**
 * A hit's relevance in 0..1: mostly the share of the query's topic terms (the search's own
 * analyzer: stemmed, question words dropped, Thai segmented) found in the chunk's title, headings
 * and text, plus a little for being found by both the lexical and the vector channel. 1 = every
 * topic word is there and both channels agree; a threshold of 0.5 keeps hits with about half the
 * topic words. A hit only the vector channel found (a paraphrase) scores low but not zero.
 */
export function calibratedScore(queryTerms: ReadonlySet<string>, hit: Pick<SearchResult, 'title' | 'headingPath' | 'text' | 'lexicalRank' | 'semanticRank'>): number {
  const inChunk = new Set(tokenize(`${hit.title}\n${hit.headingPath.join('\n')}\n${hit.text}`));
  let found = 0;
  for (const term of queryTerms) if (inChunk.has(term)) found++;
  const coverage = queryTerms.size > 0 ? found / queryTerms.size : 0;
  const channels = (hit.lexicalRank !== null ? 1 : 0) + (hit.semanticRank !== null ? 1 : 0);
  const score = COVERAGE_WEIGHT * coverage + (1 - COVERAGE_WEIGHT) * (channels / 2);
  return Math.round(score * 1e4) / 1e4;
}

/** The query's topic terms as search sees them (all its terms when it has only question words). */
export function queryTermSet(query: string): Set<string> {
  const topic = searchTerms(query).terms;
  return new Set(topic.length > 0 ? topic : tokenize(query));
}

type Condition = z.output<typeof conditionSchema>;

const asText = (v: unknown) => (v === undefined || v === null ? '' : Array.isArray(v) ? v.map(String).join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v));
const asNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN);
const asTime = (v: unknown) => (typeof v === 'number' ? v * (v < 1e12 ? 1000 : 1) : Date.parse(String(v)));

/** One of Dify's conditions against a record's metadata (a missing field matches only `empty`, `not …`). */
export function matchesCondition(metadata: Record<string, unknown>, condition: Condition): boolean {
  const actual = metadata[condition.name];
  const expected = condition.value;
  const values = Array.isArray(actual) ? actual.map(asText) : [asText(actual)];
  const text = asText(actual);
  const wanted = asText(expected);
  switch (condition.comparison_operator) {
    case 'contains':
      return Array.isArray(actual) ? values.includes(wanted) : text.includes(wanted);
    case 'not contains':
      return Array.isArray(actual) ? !values.includes(wanted) : !text.includes(wanted);
    case 'start with':
      return text.startsWith(wanted);
    case 'end with':
      return text.endsWith(wanted);
    case 'is':
      return actual !== undefined && text === wanted;
    case 'is not':
      return text !== wanted;
    case 'in':
      return (Array.isArray(expected) ? expected : [wanted]).some((v) => values.includes(String(v)));
    case 'not in':
      return !(Array.isArray(expected) ? expected : [wanted]).some((v) => values.includes(String(v)));
    case 'empty':
      return actual === undefined || actual === null || text === '' || (Array.isArray(actual) && actual.length === 0);
    case 'not empty':
      return !(actual === undefined || actual === null || text === '' || (Array.isArray(actual) && actual.length === 0));
    case '=':
      return asNumber(actual) === asNumber(expected);
    case '≠':
      return asNumber(actual) !== asNumber(expected);
    case '>':
      return asNumber(actual) > asNumber(expected);
    case '<':
      return asNumber(actual) < asNumber(expected);
    case '≥':
      return asNumber(actual) >= asNumber(expected);
    case '≤':
      return asNumber(actual) <= asNumber(expected);
    case 'before':
      return asTime(actual) < asTime(expected);
    case 'after':
      return asTime(actual) > asTime(expected);
  }
}

/**
 * `knowledge_id` → the request's workspace: a slug or an id of the key's tenant. Another tenant's
 * workspace is "not found" like any other address; a key bound to one workspace reaches only it.
 */
export async function resolveKnowledge(deps: { access: AccessService }, ctx: RequestContext, knowledgeId: string): Promise<Result<RequestContext, PanyaError>> {
  const slug = (await deps.access.workspaceSlugById(ctx.tenant.id, knowledgeId)) ?? knowledgeId;
  const resolved = await deps.access.resolve(ctx.principal, { tenantSlug: ctx.tenant.slug, workspaceSlug: slug });
  if (resolved.isErr() && resolved.error.code === 'not_found') return err(errors.notFound(`Knowledge "${knowledgeId}"`));
  return resolved;
}

/** Candidates searched when a metadata condition may drop some: the search's own cap. */
const FILTER_CANDIDATES = 50;

/**
 * Dify's retrieval as a billable search (counted and rate-limited as `search`). Not mounted by
 * the table (no `http` binding): the route speaks Dify's error format; `knowledge_id` addresses it.
 */
export const difyRetrieval = defineOperation({
  id: 'dify_retrieval',
  scope: 'read',
  counted: 'search',
  input: { body: difyRetrievalSchema },
  output: difyRetrievalResponseSchema,
  address(deps, ctx, raw) {
    const body = raw.body as { knowledge_id?: unknown } | undefined;
    const knowledgeId = typeof body?.knowledge_id === 'string' ? body.knowledge_id.trim() : '';
    return knowledgeId ? resolveKnowledge(deps, ctx, knowledgeId) : Promise.resolve(ok(ctx));
  },
  async run({ request, services }, { body }) {
    const { top_k: topK, score_threshold: threshold } = body.retrieval_setting;
    const conditions = body.metadata_condition?.conditions ?? [];
    const found = await services.search.forCaller(request, { query: body.query, topK: conditions.length > 0 ? FILTER_CANDIDATES : topK });
    const terms = queryTermSet(body.query);
    const docIds = [...new Set(found.results.map((r) => r.documentId))];
    const docs = new Map<string, Record<string, unknown>>();
    for (const doc of await Promise.all(docIds.map((id) => services.documents.get(request, id)))) if (doc.isOk()) docs.set(doc.value.id, doc.value.metadata);
    const any = body.metadata_condition?.logical_operator === 'or';
    const records: DifyRetrievalResponse['records'] = [];
    for (const hit of found.results) {
      const metadata: Record<string, unknown> = { ...docs.get(hit.documentId), document_id: hit.documentId, chunk_id: hit.chunkId, url: hit.url, heading_path: hit.headingPath };
      if (conditions.length > 0 && !(any ? conditions.some((c) => matchesCondition(metadata, c)) : conditions.every((c) => matchesCondition(metadata, c)))) continue;
      const score = calibratedScore(terms, hit);
      if (score < threshold) continue;
      records.push({ content: hit.text, score, title: hit.title, metadata });
      if (records.length === topK) break;
    }
    return ok({ records });
  },
});
