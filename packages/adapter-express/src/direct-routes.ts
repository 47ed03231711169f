import type { IncomingMessage, ServerResponse } from 'node:http';
import { executeOperation, HTTP_OPERATIONS, MAX_JSON_DEPTH, nestedDeeperThan, tooDeep, type Engine, type Logger, type Operation } from '@panya/core';
import { credentials } from './context.js';
import { corsHeaders } from './cors.js';
import { certainlyApiHost, type HelpCenterOptions } from './help/router.js';
import { recordOnClose, type Metrics } from './observability.js';
import { rateLimitHeaders, requestLocale, writeProblem } from './problem.js';
import { abortOnClose } from './routes/operations.js';
import { setBaseHeaders } from './security-headers.js';
import { armBodyDeadline, failureProblem } from './transport.js';
import { clientAddress, type TrustProxy } from './trust-proxy.js';
import { visitorOf } from './visitor.js';

/** The operations answered directly: the read endpoints a widget or help center calls for every visitor. */
const DIRECT_OPERATIONS = ['search', 'answer'];

export interface DirectRouteOptions {
  engine: Engine;
  logger: Logger;
  metrics: Metrics;
  jsonLimit: number;
  bodyTimeoutMs: number;
  helpCenter: HelpCenterOptions;
  /** The app's `trust proxy` setting: the client's address is read as Express reads `req.ip`. */
  trustProxy?: TrustProxy | boolean | string;
}

/** `application/json`, UTF-8 if a charset is named: what the JSON parser would take without conversion. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;
const LENGTH = /^[1-9][0-9]{0,9}$/;

/**
 * Whether the request asks for nothing but a key, a JSON body and an answer: no session cookie,
 * no content encoding or chunked body, no forwarded host (`trust proxy`), and a declared length
 * within the JSON limit. A browser's `Origin` is fine (CORS is the Express routes' own
 * function), and so is an `Idempotency-Key`: reads keep nothing under it, here as in Express.
 */
function plainRequest(req: IncomingMessage, jsonLimit: number): boolean {
  const h = req.headers;
  if (h.cookie !== undefined || h['content-encoding'] !== undefined) return false;
  if (h['transfer-encoding'] !== undefined || h['x-forwarded-host'] !== undefined) return false;
  const length = h['content-length'];
  if (length === undefined || !LENGTH.test(length) || Number(length) > jsonLimit) return false;
  return h['content-type'] !== undefined && PLAIN_JSON.test(h['content-type']);
}

/** The Host header without its port, lower-cased (Express's `req.hostname` without a proxy). */
function hostnameOf(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  const offset = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', offset);
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/** The body as the JSON parser reads it (strict: an object or an array; a UTF-8 BOM skipped), or the fault it raises. */
function parseBody(bytes: Buffer): { body: unknown } | { fault: { type: string; message: string } } {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') return { fault: { type: 'entity.parse.failed', message: `Unexpected token ${JSON.stringify(first ?? '')}: the body must be a JSON object` } };
  try {
    return { body: JSON.parse(text) };
  } catch (error) {
    return { fault: { type: 'entity.parse.failed', message: (error as Error).message } };
  }
}

/**
 * `POST /api/search` and `POST /api/answer` asked plainly (a key, a JSON body, nothing else to
 * negotiate) on the API's host, answered on Node's own request and response. Express's own work
 * for a request (its request and response prototypes, a walk over the app's ~35 layers, the body
 * parser, `res.json`) cost as much CPU as the search it carried when the answer is cached
 * (docs/decisions.md). The rules are the Express routes' own functions: the base headers, the
 * body deadline, core's authenticator and operation, problem documents, the access log and
 * metrics, CORS. A request that asks for anything more — a session, another
 * content type or encoding, a query string, a tenant path, a host that may be a help center — goes
 * through Express as before.
 *
 * Returns a handler that answers the request and returns true, or returns false and leaves it.
 */
export function directRoutes(options: DirectRouteOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { engine, logger, metrics, jsonLimit } = options;
  const cors = corsHeaders(engine);
  const addressOf = clientAddress(options.trustProxy);
  const routes = new Map<string, Operation>();
  for (const operation of HTTP_OPERATIONS) {
    if (DIRECT_OPERATIONS.includes(operation.id) && operation.http!.method === 'POST') routes.set(`/api${operation.http!.path}`, operation);
  }
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const operation = routes.get(req.url ?? '');
    if (!operation || !plainRequest(req, jsonLimit)) return false;
    const hostname = hostnameOf(req);
    if (!hostname || !certainlyApiHost(engine, options.helpCenter, hostname)) return false;
    void answer(operation, req, res);
    return true;
  };

  async function answer(operation: Operation, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url!;
    setBaseHeaders(req, res, path);
    let tenant: string | null = null;
    let problemCode: string | undefined;
    recordOnClose(logger, metrics, req, res, () => ({ route: path, tenant, problemCode }));
    const fail = (error: Parameters<typeof writeProblem>[2], body?: unknown) => {
      problemCode = error.code;
      const asked = (body ?? {}) as { locale?: unknown; query?: unknown };
      writeProblem(req, res, error, body === undefined ? undefined : requestLocale(req, asked.locale, asked.query));
    };
    armBodyDeadline(req, res, options.bodyTimeoutMs, logger, (problem) => fail(problem));
    try {
      if (req.headers.origin) await cors(req, res);
      const received = await readBody(req);
      if (res.headersSent) return;
      const parsed = parseBody(received);
      // A body the JSON parser would refuse fails as its fault does in Express.
      if ('fault' in parsed) throw parsed.fault;
      const { body } = parsed;
      if (nestedDeeperThan(body, MAX_JSON_DEPTH)) return fail(tooDeep());
      const caller = await engine.auth.authenticate(credentials(req), {}, 'api', { acceptsPublishable: operation.acceptsPublishable === true });
      if (caller.isErr()) return fail(caller.error);
      tenant = caller.value.tenant.slug;
      const ctx = caller.value.principal.publishable && !caller.value.visitor ? { ...caller.value, visitor: visitorOf(req, addressOf(req)) } : caller.value;
      // Search and answer only read: an `Idempotency-Key` is accepted and nothing is kept (core's `takesIdempotencyKey`).
      const client = abortOnClose(res);
      const done = await executeOperation(engine, operation, ctx, { params: {}, query: {}, body }, {
        channel: { via: 'rest' },
        get signal() {
          return client.signal;
        },
      });
      if (done.isErr()) return fail(done.error, body);
      const { value, rateLimit, input } = done.value;
      const http = operation.http!;
      if (rateLimit) for (const [name, header] of Object.entries(rateLimitHeaders(rateLimit))) res.setHeader(name, header);
      res.statusCode = typeof http.status === 'function' ? http.status(input, value) : (http.status ?? 200);
      const json = JSON.stringify(value);
      const bytes = Buffer.from(json);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', bytes.length);
      res.end(bytes);
    } catch (error) {
      const problem = failureProblem(error, req, logger, jsonLimit, tenant !== null);
      if (!problem) {
        if (!res.headersSent && !res.writableEnded) res.destroy();
        return;
      }
      if (res.headersSent) return void res.end();
      fail(problem);
    }
  }
}

/** The request body, whole (its declared length is within the JSON limit). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
    // Closed before the end: the client went away (the body deadline closes it too).
    req.once('close', () => (req.complete ? undefined : reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))));
  });
}
