import type { Engine } from '@panya/core';
import { Router } from 'express';
import { ctxOf } from '../context.js';
import { rateLimitHeaders, sendProblem } from '../problem.js';

export function searchRouter(engine: Engine): Router {
  const router = Router({ mergeParams: true });
  router.post('/', async (req, res) => {
    const found = await engine.queries.search(ctxOf(res), req.body);
    if (found.isErr()) return sendProblem(req, res, found.error);
    if (found.value.rateLimit) res.set(rateLimitHeaders(found.value.rateLimit));
    res.json(found.value.value);
  });
  return router;
}
