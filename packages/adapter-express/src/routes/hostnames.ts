import { errors, type Engine } from '@panya/core';
import { Router } from 'express';
import { credentials } from '../context.js';
import { sendProblem } from '../problem.js';
import { onlyMethods } from '../routing.js';

/**
 * `GET /api/edge/tls-allowed?domain=`: the "ask" endpoint of a reverse proxy issuing certificates
 * on demand (Caddy): 200 only for an active custom hostname, 404 otherwise. No credentials — the
 * answer is public (the hostname either serves the help center or not) and costs one index probe.
 */
export function edgeRouter(engine: Engine): Router {
  const router = Router();
  router.get('/tls-allowed', async (req, res) => {
    const allowed = await engine.hostnames.tlsAllowed(req.query.domain);
    res.setHeader('Cache-Control', 'no-store');
    // The proxy reads only the status; a refusal is problem JSON like every other one.
    if (!allowed) return sendProblem(req, res, errors.notFound('Active custom hostname'));
    res.status(200).type('text/plain').send('allowed');
  });
  router.all('/tls-allowed', onlyMethods('GET'));
  return router;
}

/** `GET /api/ops/hostnames`: the operator's health view (cron-secret auth). */
export function opsRouter(engine: Engine, options: { cronSecret?: string }): Router {
  const router = Router();
  router.get('/hostnames', async (req, res) => {
    const allowed = await engine.auth.authorizeCron(credentials(req), { secret: options.cronSecret });
    if (allowed.isErr()) return sendProblem(req, res, allowed.error);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await engine.hostnames.operatorView());
  });
  router.all('/hostnames', onlyMethods('GET'));
  return router;
}
