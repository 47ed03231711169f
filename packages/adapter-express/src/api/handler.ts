import { parse as parseQuery } from 'node:querystring';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, MAX_JSON_DEPTH, nestedDeeperThan, panyaError, tooDeep, type Engine, type Logger, type PanyaError } from '@panya/core';
import proxyAddr from 'proxy-addr';
import { credentials } from '../context.js';
import { corsHeaders } from '../cors.js';
import { certainlyApiHost, type HelpCenterOptions } from '../help/router.js';
import { recordOnClose, type Metrics } from '../observability.js';
import { problemRequest } from '../problem.js';
import { methodNotAllowed } from '../routing.js';
import { setBaseHeaders } from '../security-headers.js';
import { armBodyDeadline, failureProblem } from '../transport.js';
import { clientAddress, type TrustProxy } from '../trust-proxy.js';
import { visitorOf } from '../visitor.js';
import { hasBody, isJsonType, readJsonBody } from './body.js';
import { compileApiRoutes, type ApiRoute, type Matched } from './match.js';
import { createResponder, problemReply, type ApiRequest, type ApiResponse, type Operated } from './respond.js';

export interface ApiHandlerOptions {
  logger: Logger;
  metrics: Metrics;
  jsonLimit: number;
  bodyTimeoutMs: number;
  helpCenter: HelpCenterOptions;
  /** The app's `trust proxy` setting: the client's address and host are read as Express reads them. */
  trustProxy?: TrustProxy | boolean | string | undefined;
  /** Tenant API routes the app serves itself (multipart upload, the SSE chat): passed on. */
  external: readonly ApiRoute[];
  /** The app's cookie parser (signed session cookies), run only when a request carries cookies. */
  cookies: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
}

type Next = (error?: unknown) => void;

/**
 * Aborts when the client goes away before the response is complete, so the work stops with it
 * (no orphan generation). A response sent in full aborts nothing: an abort builds an error with a
 * stack trace, a cost every request would pay for nothing. The signal is made when first read
 * (already aborted if the client has left by then): most operations never read it.
 */
export function abortOnClose(res: ServerResponse): { readonly signal: AbortSignal } {
  let controller: AbortController | undefined;
  let left = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    left = true;
    controller?.abort();
  });
  return {
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (left) controller.abort();
      }
      return controller.signal;
    },
  };
}

/** Writes a response of the compiled handler. */
function write(res: ServerResponse, reply: ApiResponse): void {
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.statusCode = reply.status;
  if (reply.body === undefined) return void res.end();
  // The string goes to the socket as it is encoded: no copy of the body in a Buffer of its own.
  res.setHeader('Content-Length', Buffer.byteLength(reply.body));
  res.end(reply.body, 'utf8');
}

const FORM = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** A JSON route's body must be JSON: anything else would reach validation as "no body". */
function notJson(req: IncomingMessage): PanyaError {
  const type = req.headers['content-type'];
  const message =
    type !== undefined && FORM.test(type)
      ? "The body is form-encoded (curl's -d sends application/x-www-form-urlencoded unless told otherwise): send JSON with the header Content-Type: application/json."
      : `The body must be JSON (Content-Type: application/json)${type ? `, not ${type.split(';')[0]}` : '; the request names no Content-Type'}.`;
  return panyaError('unsupported_media_type', { message, supported: ['application/json'] });
}

/**
 * The tenant API's JSON routes — every entry of core's operation table — as one plain Node
 * handler, mounted first in the app: one matcher built from the table (404 is the app's, 405 with
 * `Allow` here), one JSON reader, `engine.api`, one writer. What else the app does for a request
 * is done here too, in the app's order: base headers, access log and metrics, the body deadline,
 * help hosts left to the help center, an erased tenant's 410, CORS, session cookies, the client's
 * address behind trusted proxies. Anything the table does not describe goes on to `next`.
 */
export function apiHandler(engine: Engine, options: ApiHandlerOptions): (req: IncomingMessage, res: ServerResponse, next: Next) => void {
  const { logger, metrics, jsonLimit } = options;
  const match = compileApiRoutes(undefined, options.external);
  const cors = corsHeaders(engine);
  const addressOf = clientAddress(options.trustProxy);
  const trusted = trustFunction(options.trustProxy);
  const tenants = new WeakMap<ApiRequest, string>();
  const respond = createResponder(engine, (request, tenant) => tenants.set(request, tenant));

  return (req, res, next) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const pathname = mark === -1 ? url : url.slice(0, mark);
    let matched: Matched;
    try {
      matched = match(req.method ?? 'GET', pathname);
    } catch (error) {
      // A malformed percent-encoding in the path: the app answers it as it answers any.
      return next(error);
    }
    if (matched.kind === 'elsewhere') return next();
    const hostname = hostnameOf(req, trusted);
    // The API's own hosts answer at once; another host may be a help center's, which owns every path there.
    if (!hostname || certainlyApiHost(engine, options.helpCenter, hostname)) return void serve(req, res, matched, url, pathname, mark);
    void (async () => {
      let help: boolean;
      try {
        help = engine.helpCenter.isHelpHost(hostname) || (await engine.helpCenter.isHelpHostname(hostname));
      } catch (error) {
        return next(error);
      }
      if (help) return next();
      await serve(req, res, matched, url, pathname, mark);
    })();
  };

  async function serve(req: IncomingMessage, res: ServerResponse, matched: Exclude<Matched, { kind: 'elsewhere' }>, url: string, pathname: string, mark: number): Promise<void> {
    const outer = (req as { baseUrl?: string }).baseUrl ?? '';
    setBaseHeaders(req, res, pathname);
    const outcome: { route: string; tenant: string | null; problemCode: string | undefined } = { route: matched.kind === 'operation' ? matched.route : 'unmatched', tenant: null, problemCode: undefined };
    recordOnClose(logger, metrics, req, res, () => outcome);
    const refuse = (error: PanyaError, body?: unknown) => {
      const reply = problemReply({ problem: problemRequest(req, res), body }, error);
      outcome.problemCode = reply.problemCode;
      if (!res.headersSent) write(res, reply);
    };
    armBodyDeadline(req, res, options.bodyTimeoutMs, logger, (problem) => refuse(problem));
    try {
      const { tenantSlug } = matched.addressing;
      // `/c/{slug}/…` of an erased tenant: 410 Gone (spec "Tenant erasure" 4).
      if (tenantSlug !== undefined && (await engine.erasure.isErased(tenantSlug))) return refuse(panyaError('gone', { message: `Tenant "${tenantSlug}" was erased.` }));
      if (req.headers.origin !== undefined) {
        await cors(req, res, tenantSlug);
        if (res.writableEnded) return;
        // A preflight the allow-list did not answer: say why, instead of asking for a key it never carries.
        if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) return refuse(errors.forbidden(`The origin ${req.headers.origin} is not in the tenant's allowed origins.`));
      }
      if (matched.kind === 'method_not_allowed') return refuse(methodNotAllowed(req.method ?? '', matched.allowed));
      await answer(req, res, matched, url, outer, mark, outcome);
    } catch (error) {
      const problem = failureProblem(error, req, logger, jsonLimit, outcome.tenant !== null);
      if (!problem) {
        if (!res.headersSent && !res.writableEnded) res.destroy();
        return;
      }
      if (res.headersSent) return void res.end();
      refuse(problem);
    }
  }

  async function answer(req: IncomingMessage, res: ServerResponse, matched: Operated, url: string, outer: string, mark: number, outcome: { tenant: string | null; problemCode: string | undefined }): Promise<void> {
    const body = await readJsonBody(req, jsonLimit);
    if (res.writableEnded) return;
    const problem = problemRequest(req, res);
    const fail = (error: PanyaError) => {
      const reply = problemReply({ problem, body }, error);
      outcome.problemCode = reply.problemCode;
      write(res, reply);
    };
    // Before any route walks it recursively (idempotency's canonical form, a schema, a serializer).
    if (body !== undefined && nestedDeeperThan(body, MAX_JSON_DEPTH)) return fail(tooDeep());
    if (matched.operation.input.body && body === undefined && hasBody(req) && !isJsonType(req)) return fail(notJson(req));
    if (req.headers.cookie !== undefined) await new Promise<void>((resolve, reject) => options.cookies(req, res, (error) => (error ? reject(error as Error) : resolve())));
    const client = abortOnClose(res);
    const key = req.headers['idempotency-key'];
    const request: ApiRequest = {
      method: req.method ?? 'GET',
      url: `${outer}${url}`,
      base: `${outer}${matched.base}`,
      query: mark === -1 ? {} : parseQuery(url.slice(mark + 1)),
      body,
      credentials: credentials(req),
      get visitor() {
        return visitorOf(req, addressOf(req));
      },
      idempotencyKey: typeof key === 'string' ? key : undefined,
      problem,
      get signal() {
        return client.signal;
      },
    };
    const reply = await respond(matched, request);
    outcome.tenant = tenants.get(request) ?? null;
    outcome.problemCode = reply.problemCode;
    if (!res.writableEnded) write(res, reply);
  }
}

/** Express's `trust proxy` as a function of an address and its hop, or null when no proxy is believed. */
function trustFunction(trust: TrustProxy | boolean | string | undefined): ((address: string, hop: number) => boolean) | null {
  if (trust === undefined || trust === false || trust === 0) return null;
  if (trust === true) return () => true;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyAddr.compile(typeof trust === 'string' ? trust.split(',').map((s) => s.trim()) : trust);
}

/** The request's host without its port, lower-cased: Express's `req.hostname` (`X-Forwarded-Host` from a trusted proxy). */
function hostnameOf(req: IncomingMessage, trusted: ((address: string, hop: number) => boolean) | null): string {
  let host = req.headers.host ?? '';
  const forwarded = req.headers['x-forwarded-host'];
  if (trusted && typeof forwarded === 'string' && trusted(req.socket.remoteAddress ?? '', 0)) {
    const first = forwarded.split(',')[0]!.trim();
    if (first) host = first;
  }
  const offset = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', offset);
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}
