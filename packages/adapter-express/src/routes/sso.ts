import { errors, panyaError, SSO_CALLBACK_PATH, SSO_ATTEMPT_TTL_MS, type Engine, type PanyaError, type SsoProvider } from '@panya/core';
import type { Request, Response } from 'express';
import { Router } from 'express';
import * as oidc from 'openid-client';
import { escapeHtml } from '../help/markdown.js';
import { problemResponse, sendProblem } from '../problem.js';
import { onlyMethods } from '../routing.js';
import { setSessionCookie, type SessionCookieOptions } from '../session.js';

/** The browser's half of an attempt: the callback's `state` must be the one this browser started. */
const ATTEMPT_COOKIE = 'panya_sso';
const ATTEMPT_PATH = '/api/auth/sso';
/** Discovery and token requests to the provider give up after this (seconds). */
const PROVIDER_TIMEOUT_S = 10;
const DISCOVERY_CACHE_MAX = 200;

/**
 * Single sign-on for the admin app (OpenID Connect through `openid-client`, authorization code
 * with PKCE, state and nonce): `GET /api/auth/sso/{tenant}` says what the login page offers,
 * `…/{tenant}/start` sends the browser to the tenant's provider, `/api/auth/sso/callback`
 * exchanges the code, validates the ID token and signs the user in with the same session cookie
 * as password login. Which users may enter, as which role, is core's (`engine.sso`).
 */
export function ssoRouter(engine: Engine, cookie: SessionCookieOptions, options: { baseUrl?: string } = {}): Router {
  const router = Router();
  /** The public origin the provider sends the browser back to (the address registered there). */
  const origin = (req: Request) => (options.baseUrl ? new URL(options.baseUrl).origin : `${req.protocol}://${req.get('host')}`);
  // One discovery per provider settings (a settings change is a new key), failures not kept.
  const discovered = new Map<string, Promise<oidc.Configuration>>();
  function configuration(provider: SsoProvider): Promise<oidc.Configuration> {
    const key = `${provider.issuer}\n${provider.clientId}\n${provider.updatedAt}`;
    let found = discovered.get(key);
    if (!found) {
      if (discovered.size >= DISCOVERY_CACHE_MAX) discovered.delete(discovered.keys().next().value!);
      // http is accepted by core only for a provider on the loopback interface.
      const insecure = new URL(provider.issuer).protocol === 'http:';
      found = oidc.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, { timeout: PROVIDER_TIMEOUT_S, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) });
      found.catch(() => discovered.delete(key));
      discovered.set(key, found);
    }
    return found;
  }

  router.get('/callback', async (req, res) => {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const bound = (req.signedCookies as Record<string, unknown> | undefined)?.[ATTEMPT_COOKIE];
    res.clearCookie(ATTEMPT_COOKIE, { httpOnly: true, signed: true, sameSite: 'lax', secure: cookie.secure, path: ATTEMPT_PATH });
    // A state this browser did not start (a link planted by someone else) is refused before it is looked up.
    if (!state || bound !== state) return refuse(req, res, errors.invalid('This sign-in did not start in this browser; start again from the login page.', [{ path: 'state', message: 'does not match this browser' }]));
    const attempt = await engine.sso.takeAttempt(state);
    if (attempt.isErr()) return refuse(req, res, attempt.error);
    let claims: Record<string, unknown>;
    try {
      const config = await configuration(attempt.value.provider);
      const current = new URL(req.originalUrl, origin(req));
      const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: attempt.value.codeVerifier, expectedState: state, expectedNonce: attempt.value.nonce, idTokenExpected: true });
      claims = { ...tokens.claims() };
    } catch (error) {
      return refuse(req, res, providerError(error));
    }
    const session = await engine.sso.signIn(attempt.value.tenantId, claims);
    if (session.isErr()) return refuse(req, res, session.error);
    setSessionCookie(res, session.value.token, session.value.expiresAt, cookie);
    res.redirect(303, `/admin/?tenant=${encodeURIComponent(session.value.tenantSlug)}`);
  });

  router.get('/:tenantSlug/start', async (req, res) => {
    const begun = await engine.sso.begin(req.params.tenantSlug);
    if (begun.isErr()) return refuse(req, res, begun.error);
    let url: URL;
    try {
      const config = await configuration(begun.value.provider);
      url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: `${origin(req)}${SSO_CALLBACK_PATH}`,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(begun.value.codeVerifier),
        code_challenge_method: 'S256',
        state: begun.value.state,
        nonce: begun.value.nonce,
      });
    } catch (error) {
      return refuse(req, res, providerError(error));
    }
    res.cookie(ATTEMPT_COOKIE, begun.value.state, { httpOnly: true, signed: true, sameSite: 'lax', secure: cookie.secure, path: ATTEMPT_PATH, maxAge: SSO_ATTEMPT_TTL_MS });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, url.href);
  });

  // What the login page offers for a tenant (the same for an unknown tenant as for one without single sign-on).
  router.get('/:tenantSlug', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await engine.sso.loginOptions(req.params.tenantSlug));
  });
  router.all(['/callback', '/:tenantSlug/start', '/:tenantSlug'], onlyMethods('GET'));
  return router;
}

/** Why the provider's part failed: its refusal (403), an answer that does not verify (401), or no answer (503, worth a retry). */
function providerError(error: unknown): PanyaError {
  if (error instanceof oidc.AuthorizationResponseError) return errors.forbidden(`The identity provider refused the sign-in: ${error.error_description ?? error.error}.`);
  if (error instanceof oidc.ResponseBodyError) return errors.unauthorized(`The identity provider refused the code exchange: ${error.error_description ?? error.error}.`);
  const cause = (error as { cause?: unknown }).cause;
  // openid-client wraps the check that failed (e.g. 'unexpected ID Token "nonce" claim value'): name it.
  const message = error instanceof Error ? `${error.message}${cause instanceof Error && cause.message !== error.message ? ` (${cause.message})` : ''}` : String(error);
  if (error instanceof oidc.ClientError && !/fetch failed|timed? ?out|abort|ECONNREFUSED|ENOTFOUND/i.test(`${message} ${String(cause ?? '')}`)) {
    return errors.unauthorized(`The identity provider's answer did not verify: ${message}`);
  }
  return panyaError('upstream_unavailable', { message: `The identity provider could not be reached: ${message}`, provider: 'identity provider', transient: true });
}

/**
 * A refusal: a browser (it navigated here) gets a short page saying why, with the way back;
 * anything else the problem document. Nothing was written.
 */
function refuse(req: Request, res: Response, error: PanyaError): void {
  if (req.accepts(['json', 'html']) !== 'html') return sendProblem(req, res, error);
  const { status, body } = problemResponse(req, res, error);
  const problem = JSON.parse(body) as { detail?: string };
  res.locals.problemCode = error.code;
  res
    .status(status)
    .type('html')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Single sign-on failed</title></head><body><main><h1>Single sign-on failed (${status})</h1><p role="alert">${escapeHtml(problem.detail ?? '')}</p><p><a href="/admin/">Back to the sign-in page</a></p></main></body></html>`);
}
