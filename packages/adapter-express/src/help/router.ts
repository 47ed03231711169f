/**
 * Host dispatch for the public help center: a request whose Host is `PANYA_HELP_HOST` or a
 * custom hostname (registered, or kept by an erased tenant's tombstone) gets help-center pages
 * only; every other Host gets the API. Which site, redirect, 404 or 410 a request gets is
 * core's (`engine.helpCenter.resolve`); this module speaks HTTP and HTML.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { detectLocale, errors, type VisitorIdentity, HELP_PAGE_VIEWS_PER_ADDRESS_PER_MINUTE, HELP_QUERY_MAX_CHARS, HELP_SEARCH_CACHE_ENTRIES, HELP_SEARCH_CACHE_MS, type AnswerResponse, type Credentials, type Engine, type HelpSite, type PanyaError } from '@panya/core';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { CHROME, helpLocale } from './chrome.js';
import { rateLimitHeaders, requestLocale, sendProblem } from '../problem.js';
import { jsonDepthLimit } from '../transport.js';
import { VISITOR_TOKEN_COOKIE, visitorOf, visitorTokenOf } from '../visitor.js';
import { ASK_SCRIPT, ASK_SCRIPT_ETAG, ASK_SCRIPT_PATH } from './ask-script.js';
import { answerPage, articlePage, homePage, messagePage, searchPage, type PageContext } from './pages.js';

/** Browsers revalidate after a minute; the edge keeps pages until a document change purges them. */
export const PAGE_CACHE = 'public, max-age=60, s-maxage=86400';
/** Search results also change with ranking and indexing: a shorter edge lifetime. */
export const SEARCH_CACHE = 'public, max-age=60, s-maxage=300';
const MISSING_CACHE = 'public, max-age=60, s-maxage=300';
/** Permanent per spec, yet bounded: a re-upgraded hostname must serve again within the hour. */
const REDIRECT_CACHE = 'public, max-age=3600';
/** A signed-in visitor's pages show what their audiences read: never kept by a shared cache. */
const PRIVATE_PAGE = 'private, no-store';
/** The query parameter a tenant's link hands a visitor token in with (kept as a cookie, then dropped from the URL). */
export const VISITOR_TOKEN_PARAM = 'visitor_token';

/**
 * Only the ask box's script (same origin, asking the same origin) and the page's own stylesheet:
 * the `<style>` block (its colour is the workspace's) is allowed by its hash, never
 * `'unsafe-inline'`, so injected markup cannot style or run.
 */
function securityHeaders(html: string): Record<string, string> {
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
  const styleSrc = style === undefined ? "'none'" : `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
  return {
    'Content-Security-Policy': `default-src 'none'; script-src 'self'; connect-src 'self'; style-src ${styleSrc}; img-src https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
}

export interface HelpCenterOptions {
  /** The API's own hostname (`PANYA_BASE_URL`): never looked up as a custom hostname. */
  apiHostname?: string;
}

/** Sends a cacheable page: a strong ETag of the body, and 304 when the client already holds it. */
function sendPage(req: Request, res: Response, status: number, html: string, cacheControl: string): void {
  const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
  res.set({ ...securityHeaders(html), 'Cache-Control': cacheControl, ETag: etag, Vary: 'Accept-Language' });
  const held = req.get('if-none-match');
  if (status === 200 && held && held.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*')) {
    res.status(304).end();
    return;
  }
  res.status(status).type('html').send(html);
}

function sendUncached(res: Response, status: number, html: string): void {
  res.set({ ...securityHeaders(html), 'Cache-Control': 'no-store' }).status(status).type('html').send(html);
}

/**
 * Page views per client address in fixed one-minute windows, on this node: the map holds only
 * the addresses of the current minute, so its size is bounded by one minute's traffic.
 */
function pageViewLimiter(perMinute: number) {
  let window = 0;
  let counts = new Map<string, number>();
  return (address: string, now = Date.now()): number | null => {
    const current = Math.floor(now / 60_000);
    if (current !== window) {
      window = current;
      counts = new Map();
    }
    const count = (counts.get(address) ?? 0) + 1;
    counts.set(address, count);
    // Refused: seconds until the window ends.
    return count > perMinute ? Math.max(1, Math.ceil(((current + 1) * 60_000 - now) / 1000)) : null;
  };
}

type Found = Awaited<ReturnType<Engine['helpCenter']['search']>>;

/** A help center's search results for the same query, reused for a minute on this node (oldest dropped first). */
function searchCache(engine: Engine) {
  const cache = new Map<string, { found: Found; until: number }>();
  return async (site: HelpSite, q: unknown): Promise<Found> => {
    const key = `${site.base}\n${typeof q === 'string' ? q.trim().slice(0, HELP_QUERY_MAX_CHARS) : ''}`;
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.found;
    const found = await engine.helpCenter.search(site, q);
    cache.delete(key);
    cache.set(key, { found, until: Date.now() + HELP_SEARCH_CACHE_MS });
    if (cache.size > HELP_SEARCH_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    return found;
  };
}

/** The help center's pages, for a request already known to be for the help host or a custom hostname. */
function helpRouter(engine: Engine): Router {
  const router = Router();
  const views = pageViewLimiter(HELP_PAGE_VIEWS_PER_ADDRESS_PER_MINUTE);
  const search = searchCache(engine);
  router.use(express.urlencoded({ extended: false, limit: '4kb' }), express.json({ limit: '4kb' }), jsonDepthLimit);
  router.use(async (req, res) => {
    if (req.path === ASK_SCRIPT_PATH) return sendScript(req, res);
    const { locale, explicit } = helpLocale(req);
    // Pages and searches are public: each address has its own budget of views (the ask box has the site's budgets).
    const wait = req.method === 'POST' ? null : views(req.ip ?? '');
    if (wait !== null) {
      res.set('Retry-After', String(wait));
      return sendUncached(res, 429, messagePage({ site: null, locale, explicitLocale: explicit }, CHROME[locale].busy, CHROME[locale].busyText));
    }
    const resolution = await engine.helpCenter.resolve({ hostname: req.hostname, path: req.path, url: req.originalUrl });
    const bare: PageContext = { site: null, locale, explicitLocale: explicit };
    const t = CHROME[locale];
    let identity: VisitorIdentity | null = null;
    const notFound = (site: HelpSite | null = null) => sendPage(req, res, 404, messagePage({ ...bare, site }, t.notFound, t.notFoundText), identity ? PRIVATE_PAGE : MISSING_CACHE);

    switch (resolution.kind) {
      case 'gone':
        return sendUncached(res, 410, messagePage(bare, t.gone, t.goneText));
      case 'suspended':
        return sendUncached(res, 403, messagePage(bare, t.suspended, t.suspendedText(resolution.plan)));
      case 'redirect':
        res.set('Cache-Control', REDIRECT_CACHE);
        return res.redirect(301, resolution.location);
      case 'not_found':
        return notFound();
      case 'site':
        break;
    }
    const { site, page } = resolution;
    const ctx: PageContext & { site: HelpSite } = { ...bare, site };
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    if (!(isRead || (req.method === 'POST' && page.kind === 'ask'))) return notFound();
    // A link carrying a visitor token: kept as a cookie, and the URL without it (no token in logs or history).
    const handed = req.query[VISITOR_TOKEN_PARAM];
    if (isRead && typeof handed === 'string' && handed !== '') {
      const url = new URL(req.originalUrl, 'http://x');
      url.searchParams.delete(VISITOR_TOKEN_PARAM);
      res.cookie(VISITOR_TOKEN_COOKIE, handed, { httpOnly: true, secure: req.secure, sameSite: 'lax', path: '/' });
      res.set('Cache-Control', 'no-store');
      return res.redirect(303, `${url.pathname}${url.search}`);
    }
    // A signed-in visitor reads their audiences too; a token that does not verify is refused (and forgotten).
    const token = visitorTokenOf(req);
    if (token !== undefined) {
      const verified = await engine.visitorIdentity.verify({ tenantId: site.tenant.id, workspaceId: site.workspace.id }, token);
      if (verified.isErr()) {
        res.clearCookie(VISITOR_TOKEN_COOKIE, { path: '/' });
        return sendUncached(res, 401, messagePage({ ...ctx, site }, t.signInAgain, t.signInAgainText));
      }
      identity = verified.value;
    }
    const cache = (shared: string) => (identity ? PRIVATE_PAGE : shared);
    // Spec: no document with Help center ticked → the help center answers 404.
    if (!(await engine.helpCenter.hasArticles(site, identity))) return notFound();

    // The ask box answers through the site's publishable key, which its pages carry.
    if (page.kind !== 'ask') ctx.askKey = await engine.helpCenter.siteKey(site);
    switch (page.kind) {
      case 'home':
        return sendPage(req, res, 200, homePage(ctx, await engine.helpCenter.articles(site, identity)), cache(PAGE_CACHE));
      case 'article': {
        // An article outside the visitor's audiences is as missing as one that does not exist.
        const doc = await engine.helpCenter.article(site, page.id, identity);
        return doc ? sendPage(req, res, 200, articlePage(ctx, doc), cache(PAGE_CACHE)) : notFound(site);
      }
      case 'search': {
        // The node's cache holds anonymous searches only.
        const found = identity ? await engine.helpCenter.search(site, req.query.q, identity) : await search(site, req.query.q);
        return sendPage(req, res, 200, searchPage(ctx, found.query, found.results), cache(SEARCH_CACHE));
      }
      case 'ask':
        return ask(engine, req, res, ctx);
      default:
        return notFound(site);
    }
  });
  return router;
}

type Asked = { error: PanyaError } | { answer: AnswerResponse; rateLimit: Parameters<typeof rateLimitHeaders>[0] | null };

/**
 * The answer operation through `engine.api`, for a caller whose publishable key must belong to
 * this site; counted against the site's public budgets, per visitor (core's `limits`).
 */
async function answerThrough(engine: Engine, site: HelpSite, credentials: Credentials, body: unknown, visitor: string): Promise<Asked> {
  const done = await engine.api('answer', credentials, {}, { body }, { helpCenter: site, visitor });
  if (done.isErr()) return { error: done.error };
  const reply = done.value;
  return reply.kind === 'result' ? { answer: reply.value as AnswerResponse, rateLimit: reply.rateLimit } : { error: errors.internal() };
}

/**
 * `POST {base}/ask`: the answer endpoint, through a publishable key restricted to the help
 * center and bound to this site. The page's script sends the key its page carries (JSON in,
 * JSON out, like `POST /api/answer`); the form without a script posts `q`, and the server asks
 * with the site's key and origin, then renders the answer page. Either way the key's rules apply:
 * its origins, published documents only, one counted `answer` query.
 */
async function ask(engine: Engine, req: Request, res: Response, ctx: PageContext & { site: HelpSite }): Promise<void> {
  const { site } = ctx;
  if (req.method !== 'POST') return res.redirect(303, `${site.base}/`);
  const body = (req.body ?? {}) as Record<string, unknown>;
  res.set('Cache-Control', 'no-store');
  if (req.is('application/json')) {
    const asked = await answerThrough(engine, site, { authorization: req.get('authorization'), origin: req.get('origin'), visitorToken: visitorTokenOf(req) }, body, visitorOf(req, req.ip));
    if ('error' in asked) return sendProblem(req, res, asked.error, requestLocale(req, body.locale, body.query));
    if (asked.rateLimit) res.set(rateLimitHeaders(asked.rateLimit));
    res.json(asked.answer);
    return;
  }
  const question = typeof body.q === 'string' ? body.q.trim().slice(0, HELP_QUERY_MAX_CHARS) : '';
  if (!question) return sendUncached(res, 400, searchPage(ctx, '', []));
  // The question's own language; the page's (the form's locale) only breaks a tie.
  const locale = detectLocale(question, body.locale === 'th' || body.locale === 'en' ? body.locale : ctx.locale);
  const credentials = { authorization: `Bearer ${await engine.helpCenter.siteKey(site)}`, origin: engine.helpCenter.siteOrigin(site), visitorToken: visitorTokenOf(req) };
  const asked = await answerThrough(engine, site, credentials, { query: question, locale }, visitorOf(req, req.ip));
  if ('answer' in asked) return sendUncached(res, 200, answerPage({ ...ctx, locale }, question, asked.answer));
  const { error } = asked;
  if (error.code === 'rate_limited') res.set('Retry-After', String(error.retryAfterSeconds));
  const t = CHROME[ctx.locale];
  return sendUncached(res, error.code === 'rate_limited' ? 429 : 503, messagePage(ctx, t.askTitle, t.unavailable));
}

/** The ask box's script: a static file, cached for a day (its name changes with its content). */
function sendScript(req: Request, res: Response): void {
  res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff', ETag: ASK_SCRIPT_ETAG });
  if (req.get('if-none-match') === ASK_SCRIPT_ETAG) return void res.status(304).end();
  res.send(ASK_SCRIPT);
}

/** Hosts that can never be a custom hostname (no lookup needed): IPs and localhost. */
function neverCustom(hostname: string): boolean {
  return isIP(hostname) !== 0 || hostname === 'localhost' || hostname.endsWith('.localhost') || !hostname.includes('.');
}

/**
 * Whether a request for `hostname` is certainly for the API, without a lookup: the API's own
 * hostname, or a host that is not the help host and can never be a custom hostname.
 */
export function certainlyApiHost(engine: Engine, options: HelpCenterOptions, hostname: string): boolean {
  return hostname === options.apiHostname || engine.helpCenter.isApiHostname(hostname) || (!engine.helpCenter.isHelpHost(hostname) && neverCustom(hostname));
}

/**
 * Sends help-host and custom-hostname requests to the help center, everything else on to the API.
 * Mounted before the API routes: `/api` on a help host is a help-center path (404), never the API.
 */
export function helpCenterDispatch(engine: Engine, options: HelpCenterOptions = {}): RequestHandler {
  const pages = helpRouter(engine);
  return async (req, res, next) => {
    try {
      const hostname = (req.hostname ?? '').toLowerCase();
      if (!hostname || certainlyApiHost(engine, options, hostname)) return next();
      const isHelp = engine.helpCenter.isHelpHost(hostname) || (await engine.helpCenter.isHelpHostname(hostname));
      if (!isHelp) return next();
      // One metrics label for every help-center page (paths name tenants and articles).
      res.locals.routeLabel = 'help_center';
      pages(req, res, next);
    } catch (error) {
      next(error);
    }
  };
}
