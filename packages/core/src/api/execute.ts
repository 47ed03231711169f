import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { parseInput } from '../schemas/validate.js';
import { requireScope, type RequestContext } from '../context.js';
import type { Counted, QueryChannel, QueryService } from '../search/queries.js';
import type { InputSpec, Operation, OperationServices, ParsedInput, RawInput } from '../operations/types.js';

/** How each part of a request is named in validation errors. */
const PART_NAMES = { params: 'path', query: 'query', body: 'request body' } as const;

/** An operation's result, its rate-limit status, and the validated input it ran with. */
export interface Executed<I extends InputSpec, O> extends Counted<O> {
  input: ParsedInput<I>;
}

export interface ExecuteOptions {
  /** REST, or an MCP tool call (counted under the tool's name). */
  channel: QueryChannel;
  signal?: AbortSignal | undefined;
}

/**
 * Runs one operation for an authenticated request, the same way for every adapter: check the
 * scope, validate each input part (bad input changes and counts nothing), then — for a billable
 * query — take a rate-limit unit, run, and record exactly one `api_query_event`.
 */
export async function executeOperation<I extends InputSpec, O>(
  services: OperationServices & { queries: QueryService },
  operation: Operation<I, import('zod').ZodType<O>>,
  request: RequestContext,
  raw: RawInput,
  options: ExecuteOptions,
): Promise<Result<Executed<I, O>, PanyaError>> {
  if (request.principal.publishable && !operation.acceptsPublishable) return err(errors.forbidden('A publishable key (svc_pub_…) may only search, answer and chat.'));
  const allowed = requireScope(request, operation.scope);
  if (allowed.isErr()) return err(allowed.error);
  const input: Record<string, unknown> = {};
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = operation.input[part];
    if (!schema) continue;
    const parsed = parseInput(schema, raw[part] ?? (part === 'body' ? undefined : {}), PART_NAMES[part]);
    if (parsed.isErr()) return err(parsed.error);
    input[part] = parsed.value;
  }
  const parsed = input as ParsedInput<I>;
  // Read when the operation asks: an adapter may make its signal lazily (most operations never read it).
  const run = () =>
    operation.run(
      {
        request,
        services,
        get signal() {
          return options.signal;
        },
      },
      parsed,
    );
  if (!operation.counted) {
    const result = await run();
    return result.isOk() ? ok({ value: result.value, rateLimit: null, input: parsed }) : err(result.error);
  }
  const countedFailures = operation.countedFailures ?? [];
  // Failures that still count are carried out of the counted call as values, then reported.
  const counted = await services.queries.counted(request, options.channel, operation.counted, async () => {
    const result = await run();
    if (result.isErr() && !countedFailures.includes(result.error.code)) return err(result.error);
    return ok(result);
  });
  if (counted.isErr()) return err(counted.error);
  const { value: result, rateLimit } = counted.value;
  return result.isOk() ? ok({ value: result.value, rateLimit, input: parsed }) : err(result.error);
}
