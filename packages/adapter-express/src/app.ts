import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cookieParser from 'cookie-parser';
import type { Engine, Logger } from '@panya/core';
import { MAX_JSON_BODY_BYTES, REQUEST_BODY_TIMEOUT_MS, silentLogger } from '@panya/core';
import express, { type Express, type RequestHandler, Router } from 'express';
import { mcpHttpHandler, noAuthorizationServer, protectedResourceMetadata, type McpHttpOptions } from '@panya/adapter-mcp';
import { authenticate, notFoundRoute } from './context.js';
import { panyaError } from '@panya/core';
import { authRouter } from './routes/auth.js';
import { ssoRouter } from './routes/sso.js';
import { billingWebhook } from './routes/billing-webhook.js';
import { chatRouter } from './routes/chat.js';
import { auditExportRouter } from './routes/audit-export.js';
import { cronRouter } from './routes/cron.js';
import { edgeRouter, opsRouter } from './routes/hostnames.js';
import { uploadRouter, type UploadRouterOptions } from './routes/upload.js';
import { onlyMethods, routeGuard } from './routing.js';
import type { ApiRoute } from './api/match.js';
import { apiHandler } from './api/handler.js';
import { bodyDeadline, errorHandler, jsonDepthLimit } from './transport.js';
import type { TrustProxy } from './trust-proxy.js';
import { helpCenterDispatch, type HelpCenterOptions } from './help/router.js';
import { sendProblem } from './problem.js';
import { accessLog, createMetrics, metricsRoute, readinessRoute } from './observability.js';
import { openApiRoute } from './openapi.js';
import { referenceRoutes } from './reference.js';
import { difyRetrievalRoute } from './routes/dify.js';
import { CONNECTOR_WEBHOOK_PATHS, connectorWebhook } from './routes/connectors-webhook.js';
import { API_PATHS, browserCors } from './cors.js';
import { baseHeaders } from './security-headers.js';
import { adminRouter, type AdminAppOptions } from './admin.js';
import { widgetScript } from './widget/route.js';

export interface PanyaAppOptions {
  logger?: Logger;
  /** `PANYA_CRON_SECRET`: bearer secret for `/api/cron/*`. */
  cronSecret?: string;
  /** Signs session cookies; set the same value on every node. Default: random per process. */
  sessionSecret?: string;
  /** Mark cookies `Secure` (default: true unless NODE_ENV is development or test). */
  secureCookies?: boolean;
  /**
   * The server's public address (`PANYA_BASE_URL`): single sign-on's redirect URI is built on it.
   * Default: the request's own scheme and Host.
   */
  baseUrl?: string;
  /** This node's name as a job-lease holder; default: the engine's (`EngineOptions.holder`). */
  nodeId?: string;
  /** Interval of SSE heartbeat comments (default 15 s). */
  sseHeartbeatMs?: number;
  /** JSON body limit in bytes (default 1 MB). */
  jsonLimitBytes?: number;
  /** A request body must arrive within this (default `REQUEST_BODY_TIMEOUT_MS`), else 408. */
  requestBodyTimeoutMs?: number;
  /**
   * Which proxies are believed about the client's address (`PANYA_TRUST_PROXY`, see
   * `parseTrustProxy`): Express's `trust proxy`. The address keys the sign-in throttle and the
   * public surfaces' per-visitor budgets.
   */
  trustProxy?: TrustProxy | boolean | string;
  /** The MCP endpoint (`/api/mcp`), e.g. `allowedHosts` for DNS-rebinding protection. */
  mcp?: Omit<McpHttpOptions, 'logger'>;
  /** Host dispatch of the public help center (the help host itself is the engine's `helpHost`). */
  helpCenter?: HelpCenterOptions;
  /** Upload admission (default: `MAX_UPLOAD_BYTES_IN_FLIGHT`, `MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT`, waiting `UPLOAD_ADMISSION_WAIT_MS`). */
  uploads?: UploadRouterOptions;
  /** The admin app at `/admin` (default: the built `@panya/admin`); `false` leaves it out. */
  admin?: AdminAppOptions | false;
  /**
   * In a node cluster worker: `/metrics` answers the sum over every worker, gathered by the
   * primary, which must run `answerClusterMetrics()`.
   */
  clusterMetrics?: boolean;
}

/** Each app's compiled handler, for `requestListener`. */
const compiled = new WeakMap<Express, ReturnType<typeof apiHandler>>();
/** Requests the compiled handler already passed on to the app: its first layer lets them through. */
const passedOn = new WeakSet<IncomingMessage>();

/**
 * The server's request listener for an app of `createPanyaApp` (`createServer(requestListener(app))`):
 * the compiled handler answers the JSON routes on Node's own request and response, and only what
 * it passes on enters Express — its prototypes, its router — as the same app. `app.listen`, or the
 * app mounted in another Express app, answers the same through the app's first layer.
 */
export function requestListener(app: Express): (req: IncomingMessage, res: ServerResponse) => void {
  const api = compiled.get(app);
  if (!api) return app;
  return (req, res) =>
    api(req, res, () => {
      // A malformed path is refused by Express's own routing, as for any other route.
      passedOn.add(req);
      app(req, res);
    });
}

/** Names the requests of a surface with its own router in metrics and the access log. */
function labelled(route: string): RequestHandler {
  return (_req, res, next) => {
    res.locals.routeLabel = route;
    next();
  };
}

/** `/c/{slug}/…` of an erased tenant: 410 Gone, never cached (spec "Tenant erasure" 4). */
function erasedTenantGone(engine: Engine): RequestHandler {
  return async (req, res, next) => {
    const { tenantSlug } = req.params as { tenantSlug?: string };
    if (tenantSlug && (await engine.erasure.isErased(tenantSlug))) return sendProblem(req, res, panyaError('gone', { message: `Tenant "${tenantSlug}" was erased.` }));
    next();
  };
}

/** The tenant API routes outside core's operation table; the route guard must know every route. */
export const HAND_WRITTEN_ROUTES: ApiRoute[] = [
  { method: 'POST', path: '/docs/upload' },
  { method: 'POST', path: '/chat', acceptsPublishable: true },
  { method: 'GET', path: '/audit/export' },
];

/**
 * What every tenant API address serves beside core's operation table (answered by `apiHandler`
 * before this router): the two routes that need HTTP plumbing of their own (multipart upload, the
 * SSE chat stream), and 404 for what no route serves, before any key is asked for.
 */
function apiRouter(engine: Engine, options: PanyaAppOptions): Router {
  const api = Router({ mergeParams: true });
  api.use(routeGuard(HAND_WRITTEN_ROUTES));
  api.use(authenticate(engine));
  api.use('/docs/upload', uploadRouter(engine, options.uploads));
  api.use(chatRouter(engine, options.sseHeartbeatMs ? { heartbeatMs: options.sseHeartbeatMs } : {}));
  api.use(auditExportRouter(engine));
  api.use(notFoundRoute);
  return api;
}

/**
 * The Panya REST API as an Express app. The same API answers at `/api`, at
 * `/c/{tenantSlug}/api` (default workspace) and at `/c/{tenantSlug}/_w/{workspaceSlug}/api`.
 */
export function createPanyaApp(engine: Engine, options: PanyaAppOptions = {}): Express {
  const logger = options.logger ?? silentLogger;
  const jsonLimit = options.jsonLimitBytes ?? MAX_JSON_BODY_BYTES;
  const app = express();
  app.disable('x-powered-by');
  // No ETag computed from every body: tenant API answers are `no-store` (a validator serves nothing)
  // and hashing each JSON body cost ~1.5 % of a search request. Cacheable answers set their own
  // (help-center pages, the widget, `/docs`, the OpenAPI document), and `res.send` still answers
  // a matching If-None-Match with 304 for those.
  app.set('etag', false);
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  const metrics = createMetrics(engine);
  const bodyTimeoutMs = options.requestBodyTimeoutMs ?? REQUEST_BODY_TIMEOUT_MS;
  const cookies = cookieParser(options.sessionSecret ?? randomBytes(32).toString('hex'));
  // Every JSON route of core's operation table, first: a plain Node handler that does the app's
  // per-request work itself (base headers, access log, CORS, …) and passes on everything else.
  const api = apiHandler(engine, { logger, metrics, jsonLimit, bodyTimeoutMs, helpCenter: options.helpCenter ?? {}, trustProxy: options.trustProxy, external: HAND_WRITTEN_ROUTES, cookies: cookies as never });
  compiled.set(app, api);
  app.use((req, res, next) => (passedOn.has(req) ? next() : api(req, res, next)));
  app.use(baseHeaders);
  app.use(accessLog(logger, metrics));

  // Liveness (the process answers): no key, like a load balancer asks, on every host.
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.use(bodyDeadline(bodyTimeoutMs, logger));
  // Help host and custom hostnames first: there, every path is a help-center page.
  app.use(helpCenterDispatch(engine, options.helpCenter));
  // The API reference (on the API host only: on help hosts every path is a help-center page).
  const reference = referenceRoutes();
  app.get('/docs', reference.page);
  app.get('/docs/scalar.js', reference.bundle);
  // Readiness and metrics describe the deployment: answered on the API's hosts, never on public help hosts.
  app.get('/readyz', readinessRoute(engine));
  app.get('/metrics', metricsRoute(metrics, { cluster: options.clusterMetrics ?? false }));
  app.get('/api/openapi.json', openApiRoute());
  // The chat widget, for pages on the tenant's allowed origins.
  app.get('/widget.js', widgetScript);
  app.use('/c/:tenantSlug', erasedTenantGone(engine));
  // Browser access: preflights answered and CORS headers set for the tenant's allowed origins.
  app.use(API_PATHS, browserCors(engine));
  // Before the JSON parser: the processor's signature covers the raw bytes of the body.
  app.post('/api/billing/webhook', express.raw({ type: () => true, limit: jsonLimit }), billingWebhook(engine));
  app.all('/api/billing/webhook', onlyMethods('POST'));
  app.post(CONNECTOR_WEBHOOK_PATHS, express.raw({ type: () => true, limit: jsonLimit }), connectorWebhook(engine));
  app.all(CONNECTOR_WEBHOOK_PATHS, onlyMethods('POST'));
  app.use(express.json({ limit: jsonLimit, type: ['application/json', 'application/*+json'] }), jsonDepthLimit);
  app.use(cookies);
  const cookie = { secure: options.secureCookies ?? !['development', 'test'].includes(process.env.NODE_ENV ?? '') };
  const cron = cronRouter(engine, { ...(options.cronSecret ? { secret: options.cronSecret } : {}), ...(options.nodeId ? { nodeId: options.nodeId } : {}) });
  // Dify's external knowledge API: its own error format, the workspace named in the body.
  app.post('/api/dify/retrieval', difyRetrievalRoute(engine));
  app.all('/api/dify/retrieval', onlyMethods('POST'));
  app.use('/api/auth/sso', ssoRouter(engine, cookie, options.baseUrl ? { baseUrl: options.baseUrl } : {}));
  app.use('/api/auth', authRouter(engine, cookie));
  app.use('/api/cron', cron);
  app.use('/api/edge', edgeRouter(engine));
  app.use('/api/ops', opsRouter(engine, options.cronSecret ? { cronSecret: options.cronSecret } : {}));
  app.use('/c/:tenantSlug/api/cron', cron);
  // MCP hosts look for OAuth after a 401: say that there is none and that the API key is the credential.
  app.get(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/*rest'], protectedResourceMetadata);
  app.all(['/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/*rest', '/.well-known/openid-configuration', '/.well-known/openid-configuration/*rest', '/register', '/authorize', '/token'], noAuthorizationServer);
  const mcp = mcpHttpHandler(engine, { ...options.mcp, logger });
  app.all('/api/mcp', mcp);
  app.all('/c/:tenantSlug/_w/:workspaceSlug/api/mcp', mcp);
  app.all('/c/:tenantSlug/api/mcp', mcp);
  if (options.admin !== false) app.use('/admin', labelled('/admin'), adminRouter(options.admin ?? {}));
  const tenantApi = apiRouter(engine, options);
  app.use('/api', tenantApi);
  app.use('/c/:tenantSlug/_w/:workspaceSlug/api', tenantApi);
  app.use('/c/:tenantSlug/api', tenantApi);
  app.use(notFoundRoute);

  app.use(errorHandler(logger, jsonLimit));
  return app;
}
