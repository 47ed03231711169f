import { UPSTREAM_RETRY_AFTER_SECONDS, type PanyaError } from '@panya/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Machine-readable details of a failed tool call, under `_meta["panya/error"]`. */
export interface ToolErrorMeta {
  code: PanyaError['code'];
  retryAfterSeconds?: number;
  resetAt?: string;
  /** Which limit refused the call (its quota key) and its limit. */
  quota?: string;
  limit?: number;
  requiredScope?: string;
}

function describe(error: PanyaError): { text: string; meta: ToolErrorMeta } {
  switch (error.code) {
    case 'rate_limited':
      return {
        text: `${error.message} Retry after ${error.retryAfterSeconds} seconds (at ${error.resetAt.toISOString()}); do not retry sooner.`,
        meta: { code: error.code, retryAfterSeconds: error.retryAfterSeconds, resetAt: error.resetAt.toISOString(), limit: error.limit, ...(error.quota ? { quota: error.quota } : {}) },
      };
    case 'invalid_request': {
      const details = error.issues.map((i) => `${i.path || '(input)'}: ${i.message}`).join('; ');
      return { text: `Invalid input. ${error.message}${details ? ` ${details}.` : ''}`, meta: { code: error.code } };
    }
    case 'not_found':
      return { text: `${error.message} It does not exist in this knowledge base (or was deleted); check the id with svc_list_docs or svc_search.`, meta: { code: error.code } };
    case 'forbidden':
      return { text: `Not allowed: ${error.message}`, meta: { code: error.code, ...(error.requiredScope ? { requiredScope: error.requiredScope } : {}) } };
    case 'unauthorized':
      return { text: 'Not authorized: the API key is missing, unknown or revoked.', meta: { code: error.code } };
    case 'hard_cap_reached':
    case 'quota_exceeded':
    case 'plan_required':
    case 'payload_too_large':
    case 'unsupported_media_type':
    case 'request_timeout':
    case 'limit_exceeded':
    case 'conflict':
    case 'unprocessable':
    case 'gone':
      return { text: error.message, meta: { code: error.code } };
    case 'upstream_unavailable':
      return { text: error.transient ? `${error.message} Retry in about ${UPSTREAM_RETRY_AFTER_SECONDS} seconds.` : error.message, meta: { code: error.code, ...(error.transient ? { retryAfterSeconds: UPSTREAM_RETRY_AFTER_SECONDS } : {}) } };
    case 'method_not_allowed':
      return { text: error.message, meta: { code: error.code } };
    case 'unavailable':
      return {
        text: error.retryAfterSeconds ? error.message : `${error.message} The service is temporarily unavailable; try again later.`,
        meta: { code: error.code, ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}) },
      };
    case 'internal':
      return { text: 'Internal error: the call could not be completed. Try again later.', meta: { code: error.code } };
    default: {
      const unknown: never = error;
      return { text: 'Internal error.', meta: { code: (unknown as PanyaError).code } };
    }
  }
}

/**
 * The one mapping from domain errors to MCP tool errors: an `isError` result the assistant
 * can read and act on (never a protocol error, so the session goes on).
 */
export function toolError(error: PanyaError): CallToolResult {
  const { text, meta } = describe(error);
  return { isError: true, content: [{ type: 'text', text }], _meta: { 'panya/error': meta } };
}
