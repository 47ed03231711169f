import type { Engine } from '@panya/core';
import { Router } from 'express';
import { ctxOf } from '../context.js';
import { sendProblem } from '../problem.js';

export function searchRouter(engine: Engine): Router {
  const router = Router({ mergeParams: true });
  router.post('/', async (req, res) => {
    const found = await engine.search.search(ctxOf(res), req.body);
    if (found.isErr()) return sendProblem(req, res, found.error);
    res.json(found.value);
  });
  return router;
}
