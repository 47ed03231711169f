import { err, ok, type Result } from 'neverthrow';
import type { PanyaError } from '../errors.js';
import type { QueryEventKind } from '../tenancy/ports/usage.js';
import type { RequestContext } from '../context.js';
import type { CountedCall, LimitsService, RateLimitStatus } from '../billing/limits.js';
import type { UsageService } from '../tenancy/usage.js';
import { redactorFor } from '../privacy/settings.js';

export interface Counted<T> {
  value: T;
  rateLimit: RateLimitStatus | null;
}

/** How a billable query arrived: over REST, or as an MCP tool call (with the tool's name). */
export type QueryChannel = { via: 'rest' } | { via: 'mcp'; tool: string };

/**
 * The counted step of `engine.api` for billable queries (REST search/answer, MCP tools): take a
 * rate-limit unit, run, then write exactly one `api_query_event`.
 */
export function createQueryService(deps: { limits: LimitsService; usage: UsageService }) {
  async function counted<T>(
    ctx: RequestContext,
    channel: QueryChannel,
    kind: QueryEventKind,
    run: () => Promise<Result<T, PanyaError>>,
  ): Promise<Result<Counted<T>, PanyaError>> {
    const call: CountedCall = channel.via === 'mcp' ? 'mcp_tool' : 'query';
    const taken = await deps.limits.take(ctx, call);
    if (taken.isErr()) return err(taken.error);
    const result = await run();
    if (result.isErr()) return err(result.error);
    await deps.usage.recordQuery(ctx, channel.via === 'mcp' ? 'mcp_tool' : kind, channel.via === 'mcp' ? channel.tool : null);
    return ok({ value: result.value, rateLimit: taken.value });
  }

  return {
    counted,
  };
}

export type QueryService = ReturnType<typeof createQueryService>;
