import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Panya authenticates MCP hosts with API keys, not OAuth. MCP hosts that meet a 401 look for an
 * OAuth authorization server (RFC 9728 protected-resource metadata, then RFC 8414 metadata, then
 * dynamic client registration); these answers tell them, in words a person reads, that the key
 * is the problem.
 */
export const NO_OAUTH =
  'This server offers no OAuth authorization server: MCP hosts authenticate with a Panya API key that has the mcp scope, ' +
  'sent as "Authorization: Bearer svc_live_…". A 401 from the MCP endpoint means that key is missing, unknown or revoked.';

const PROTECTED_RESOURCE = '/.well-known/oauth-protected-resource';

type Req = IncomingMessage & { protocol?: string; originalUrl?: string };

/** The address the client used (Express's `req.protocol` honours `trust proxy`). */
function origin(req: Req): string {
  const proto = req.protocol ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  return `${proto}://${req.headers.host ?? 'localhost'}`;
}

/** Where the protected-resource metadata of the MCP endpoint at `path` lives (RFC 9728 §3.1). */
export function resourceMetadataUrl(req: Req, path: string): string {
  return `${origin(req)}${PROTECTED_RESOURCE}${path}`;
}

export { bearerChallenge } from '@panya/core';

function sendJson(res: ServerResponse, status: number, body: unknown, contentType: string): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
}

/**
 * `GET /.well-known/oauth-protected-resource[/<mcp path>]`: the MCP endpoint's metadata, with
 * an empty `authorization_servers` list (no OAuth) and the header the key goes in.
 */
export function protectedResourceMetadata(req: Req, res: ServerResponse): void {
  const path = new URL(req.originalUrl ?? req.url ?? '/', 'http://x').pathname.slice(PROTECTED_RESOURCE.length) || '/api/mcp';
  sendJson(
    res,
    200,
    {
      resource: `${origin(req)}${path}`,
      authorization_servers: [],
      bearer_methods_supported: ['header'],
      resource_name: 'Panya MCP server',
      description: NO_OAUTH,
    },
    'application/json',
  );
}

/**
 * The OAuth authorization-server addresses a host tries next (metadata, `/register`,
 * `/authorize`, `/token`): 404, as problem JSON that also carries `error` and
 * `error_description`, which OAuth clients print.
 */
export function noAuthorizationServer(req: Req, res: ServerResponse): void {
  sendJson(
    res,
    404,
    {
      type: 'urn:panya:problem:not_found',
      title: 'Not found',
      status: 404,
      code: 'not_found',
      detail: NO_OAUTH,
      instance: req.originalUrl ?? req.url,
      error: 'invalid_request',
      error_description: NO_OAUTH,
    },
    'application/problem+json',
  );
}
