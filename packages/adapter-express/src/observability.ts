import { indexCacheStats, panyaError, type Engine, type Logger, type RequestContext } from '@panya/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { clusterExposition } from './cluster-metrics.js';
import { sendProblem, toProblem } from './problem.js';

/** Seconds; from a cached lookup to a long answer. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The route a request matched, as a template (`/c/:tenantSlug/api/docs/:id`), so labels stay few
 * whatever the paths; what matched no route is `unmatched`. Read when the response finishes: the
 * router has left `baseUrl` and `route` as the handling route saw them.
 */
export function routeTemplate(req: Request): string {
  // Surfaces served by their own routers (help-center pages, the admin app) name themselves.
  const surface = req.res?.locals.routeLabel;
  if (typeof surface === 'string') return surface;
  const route = req.route as { path?: unknown } | undefined;
  if (!route || typeof route.path !== 'string') return 'unmatched';
  // Only the tenant and workspace slugs are parameters of a mount path.
  const mount = req.baseUrl.replace(/^\/c\/[^/]+/, '/c/:tenantSlug').replace(/\/_w\/[^/]+/, '/_w/:workspaceSlug');
  return route.path === '/' && mount ? mount : `${mount}${route.path}`;
}

/** A Prometheus registry per app (several apps in one process keep their own counts). */
export function createMetrics(engine: Engine) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'panya_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'panya_http_requests_total', help: 'HTTP requests by route template and status.', labelNames, registers: [registry] });
  const duration = new Histogram({ name: 'panya_http_request_duration_seconds', help: 'HTTP request latency by route template and status.', labelNames, buckets: LATENCY_BUCKETS, registers: [registry] });
  const refusals = new Counter({ name: 'panya_rate_limit_refusals_total', help: 'Requests refused by a rate limit (429).', labelNames: ['route'], registers: [registry] });
  const search = new Histogram({ name: 'panya_search_duration_seconds', help: 'Retrieval latency (search, answer and chat context).', buckets: LATENCY_BUCKETS, registers: [registry] });
  engine.instruments.onSearch((seconds) => search.observe(seconds));
  const cachedSearches = new Counter({ name: 'panya_search_cache_hits_total', help: 'Searches answered from the cache of recent answers (no retrieval ran).', registers: [registry] });
  engine.instruments.onCachedSearch(() => cachedSearches.inc());
  // The process's cache of loaded lexical indexes (one per process: summed over a node's workers).
  const cache = () => indexCacheStats();
  new Gauge({ name: 'panya_index_cache_bytes', help: 'Bytes held by loaded lexical indexes.', registers: [registry], collect() { this.set(cache().bytes); } });
  new Gauge({ name: 'panya_index_cache_max_bytes', help: 'The index cache budget (PANYA_INDEX_CACHE_MB).', registers: [registry], collect() { this.set(cache().maxBytes); } });
  new Counter({ name: 'panya_index_cache_hits_total', help: 'Searches that found their workspace index loaded and current.', registers: [registry], collect() { this.reset(); this.inc(cache().hits); } });
  new Counter({ name: 'panya_index_cache_loads_total', help: 'Workspace indexes loaded whole (first search, after eviction, or too far behind).', registers: [registry], collect() { this.reset(); this.inc(cache().loads); } });
  new Counter({ name: 'panya_index_cache_load_seconds_total', help: 'Time spent loading workspace indexes.', registers: [registry], collect() { this.reset(); this.inc(cache().loadSeconds); } });
  new Gauge({
    name: 'panya_ingest_queue_depth',
    help: 'Documents waiting for the ingest worker, across tenants.',
    registers: [registry],
    // A fact of the shared database that every process reads alike: across processes, never summed.
    aggregator: 'max',
    async collect() {
      // Read as readiness reads it (bounded in time); an unreachable database keeps the last figure rather than failing the scrape.
      const { queuedDocuments } = await engine.readiness();
      if (queuedDocuments !== null) this.set(queuedDocuments);
    },
  });
  return {
    registry,
    record(method: string, route: string, status: number, seconds: number, rateLimited: boolean) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
      if (rateLimited) refusals.inc({ route });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** What the access log and metrics say of a request, read when it ends. */
export interface RequestOutcome {
  /** The route template (`routeTemplate`). */
  route: string;
  /** The authenticated tenant's slug, if any. */
  tenant: string | null;
  /** The code of the problem answered, if any. */
  problemCode: string | undefined;
}

/** Records a request when it ends, however it is answered: one access-log line and its metrics. */
export function recordOnClose(logger: Logger, metrics: Metrics, req: IncomingMessage, res: ServerResponse, outcome: () => RequestOutcome): void {
  const started = performance.now();
  res.once('close', () => {
    const seconds = (performance.now() - started) / 1000;
    const { route, tenant, problemCode } = outcome();
    // A client that left before the response ended is logged with the status it would have had.
    const status = res.statusCode;
    const method = req.method ?? '';
    metrics.record(method, route, status, seconds, problemCode === 'rate_limited');
    logger.info('request', {
      requestId: String(res.getHeader('X-Request-Id') ?? ''),
      tenant,
      method,
      route,
      status,
      durationMs: Math.round(seconds * 1e4) / 10,
      ...(res.writableFinished ? {} : { aborted: true }),
    });
  });
}

/** Records every request the Express app answers. */
export function accessLog(logger: Logger, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    recordOnClose(logger, metrics, req, res, () => ({
      route: routeTemplate(req),
      tenant: (res.locals.ctx as RequestContext | undefined)?.tenant.slug ?? null,
      problemCode: res.locals.problemCode as string | undefined,
    }));
    next();
  };
}

/**
 * `GET /metrics`: the Prometheus text exposition, of this process or, in a cluster worker with
 * `cluster` set, of every worker of the node (so a scrape reads the same whichever worker answers).
 */
export function metricsRoute(metrics: Metrics, options: { cluster?: boolean } = {}): RequestHandler {
  const exposition = options.cluster ? clusterExposition(metrics.registry) : () => metrics.registry.metrics();
  return async (req, res) => {
    let text: string;
    try {
      text = await exposition();
    } catch (error) {
      // A partial sum would read as a counter reset: no answer rather than a wrong one.
      return sendProblem(req, res, panyaError('unavailable', { message: `Metrics of the other workers did not arrive: ${(error as Error).message}.` }));
    }
    res.type(metrics.registry.contentType).send(text);
  };
}

/** `GET /readyz`: 200 when core finds the node ready, else 503 problem JSON naming what failed. */
export function readinessRoute(engine: Engine): RequestHandler {
  return async (req: Request, res: Response) => {
    const readiness = await engine.readiness();
    const checks = Object.fromEntries(Object.entries(readiness.checks).map(([name, check]) => [name, check.ok ? 'ok' : 'failed']));
    if (readiness.ready) return res.json({ status: 'ready', checks });
    const failed = Object.entries(readiness.checks).filter(([, check]) => !check.ok);
    const error = panyaError('unavailable', { message: `Not ready: ${failed.map(([name, check]) => `${name}: ${check.detail}`).join(' ')}` });
    const { problem, headers } = toProblem(error);
    const requestId = res.getHeader('X-Request-Id');
    res
      .status(problem.status)
      .set(headers)
      .type('application/problem+json')
      .send(JSON.stringify({ ...problem, instance: req.originalUrl, ...(requestId ? { requestId: String(requestId) } : {}), checks, failed: failed.map(([name]) => name) }));
  };
}
