import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { silentLogger, toProblem, type Engine, type Logger, type PanyaError } from '@panya/core';
import { createPanyaMcpServer } from './server.js';
import { resourceMetadataUrl } from './oauth.js';

export interface McpHttpOptions {
  logger?: Logger;
  /**
   * DNS-rebinding protection: the hostnames (without port; IPv6 in brackets) a request's `Host`
   * may name, as the SDK's `hostHeaderValidation` checks them. Unset: no check. Set it when the
   * server listens on localhost or a private address reachable from a browser.
   */
  allowedHosts?: string[];
  /**
   * DNS-rebinding protection: `Origin` values accepted when a browser sends one. Unset: only the
   * server's own origin (an `Origin` whose host is the request's `Host`). MCP hosts send no `Origin`.
   */
  allowedOrigins?: string[];
}

/** What the handler reads: a Node request, plus Express's route params and parsed body when mounted there. */
export type McpHttpRequest = IncomingMessage & {
  params?: Record<string, string | undefined>;
  protocol?: string;
  body?: unknown;
  originalUrl?: string;
};

export type McpHttpHandler = (req: McpHttpRequest, res: ServerResponse) => Promise<void>;

function sendJson(res: ServerResponse, status: number, body: unknown, contentType: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': contentType, ...headers }).end(JSON.stringify(body));
}

/** A JSON-RPC error without an id: the transport-level refusals, shaped as the SDK's own. */
function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, 'application/json', headers);
}

/**
 * Refusals before the MCP session starts (no key, wrong scope, unknown tenant or workspace) are
 * RFC 9457 problem documents, exactly like the REST API's (core's one mapping): same status,
 * `type`, `code` and `WWW-Authenticate` challenge, so one client-side error path serves both.
 */
function sendProblem(req: McpHttpRequest, res: ServerResponse, error: PanyaError): void {
  const path = new URL(req.originalUrl ?? req.url ?? '/', 'http://x').pathname;
  const { problem, headers } = toProblem(error, 'en', { keySent: Boolean(req.headers.authorization), resourceMetadata: resourceMetadataUrl(req, path) });
  problem.instance = req.originalUrl ?? req.url;
  const requestId = res.getHeader('X-Request-Id');
  if (requestId) problem.requestId = String(requestId);
  sendJson(res, problem.status, problem, 'application/problem+json', headers);
}

/** Host and Origin checks against DNS rebinding; returns the refusal message, if any. */
function rebindingRefusal(req: IncomingMessage, options: McpHttpOptions): string | null {
  if (options.allowedHosts) {
    const host = req.headers.host;
    if (!host) return 'Missing Host header';
    let hostname: string;
    try {
      hostname = new URL(`http://${host}`).hostname;
    } catch {
      return `Invalid Host header: ${host}`;
    }
    if (!options.allowedHosts.includes(hostname)) return `Invalid Host: ${hostname}`;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  if (options.allowedOrigins) return options.allowedOrigins.includes(origin) ? null : `Invalid Origin header: ${origin}`;
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" (sandboxed frames, file pages) or garbage: no origin to trust.
  }
  return originHost !== null && originHost === req.headers.host ? null : `Invalid Origin header: ${origin}`;
}

/**
 * The MCP endpoint over Streamable HTTP, stateless: each POST gets a fresh server and
 * transport (no session to keep, so any node can answer any request). Mount it with
 * `app.all(path, handler)`; it reads `req.params.tenantSlug` / `workspaceSlug` from the
 * `/c/:tenantSlug/…` and `/c/:tenantSlug/_w/:workspaceSlug/…` routes and authenticates like
 * the REST API: `Authorization: Bearer <API_KEY>`, and the key needs the `mcp` scope.
 */
export function mcpHttpHandler(engine: Engine, options: McpHttpOptions = {}): McpHttpHandler {
  const logger = options.logger ?? silentLogger;

  return async (req, res) => {
    const refused = rebindingRefusal(req, options);
    if (refused) return sendJsonRpcError(res, 403, -32000, refused);
    // Keys only (no session cookies); the mcp scope is required and implies read (core's surface rules).
    const params = req.params ?? {};
    const authenticated = await engine.auth.authenticate(
      { authorization: req.headers.authorization },
      {
        ...(params.tenantSlug !== undefined ? { tenantSlug: params.tenantSlug } : {}),
        ...(params.workspaceSlug !== undefined ? { workspaceSlug: params.workspaceSlug } : {}),
      },
      'mcp',
    );
    // Stateless: no server-initiated stream to GET and no session to DELETE. The key is checked
    // first whatever the method: a host falling back to a GET stream must still learn that its key is refused.
    const refusedKey = authenticated.isErr() && authenticated.error.code === 'unauthorized';
    if (req.method !== 'POST' && !refusedKey) return sendJsonRpcError(res, 405, -32000, 'Method not allowed.', { Allow: 'POST' });
    if (authenticated.isErr()) return sendProblem(req, res, authenticated.error);
    const ctx = authenticated.value;
    const server = createPanyaMcpServer(engine, ctx, {
      onError: (error, tool) => logger.error('mcp tool failed', { tool, tenantId: ctx.tenant.id, error: error instanceof Error ? error.stack : String(error) }),
    });
    // JSON responses: no tool streams, and plain JSON passes every proxy.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      logger.error('mcp request failed', { path: req.originalUrl ?? req.url, error: error instanceof Error ? error.stack : String(error) });
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal server error');
    }
  };
}
