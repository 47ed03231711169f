import { errors, type Engine } from '@panya/core';
import { Router } from 'express';
import { sendProblem } from '../problem.js';
import { nonJsonBody, onlyMethods } from '../routing.js';
import { clearSessionCookie, sessionToken, setSessionCookie, type SessionCookieOptions } from '../session.js';

/**
 * `POST /api/auth/login` (JSON `{email, password}`) sets the session cookie; `POST /api/auth/logout`
 * ends it; `GET /api/auth/session` answers who is signed in and their memberships.
 */
export function authRouter(engine: Engine, cookie: SessionCookieOptions): Router {
  const router = Router();
  router.post('/login', async (req, res) => {
    // A cross-site form cannot send JSON: the body type is this route's CSRF defence.
    const notJson = nonJsonBody(req);
    if (notJson) return sendProblem(req, res, notJson);
    const session = await engine.users.login(req.body, { ...(req.ip ? { address: req.ip } : {}) });
    if (session.isErr()) return sendProblem(req, res, session.error);
    setSessionCookie(res, session.value.token, session.value.expiresAt, cookie);
    res.json({ userId: session.value.userId, expiresAt: session.value.expiresAt.toISOString() });
  });
  router.post('/logout', async (req, res) => {
    // Like every cookie-authenticated write: a cross-site form cannot send this header.
    if (req.get('x-requested-with') === undefined) return sendProblem(req, res, errors.forbidden('Signing out with the session cookie needs the X-Requested-With header.'));
    const token = sessionToken(req);
    if (token) await engine.users.logout(token);
    clearSessionCookie(res, cookie);
    res.status(204).end();
  });
  // Who is signed in, and the tenants and roles the admin app may open (no tenant is addressed yet).
  router.get('/session', async (req, res) => {
    const session = await engine.users.session(sessionToken(req));
    if (session.isErr()) return sendProblem(req, res, session.error);
    res.setHeader('Cache-Control', 'no-store');
    res.json(session.value);
  });
  router.all(['/login', '/logout'], onlyMethods('POST'));
  router.all('/session', onlyMethods('GET'));
  return router;
}
