import type { Engine } from '@panya/core';
import { Router, type Request } from 'express';
import { ctxOf } from '../context.js';
import { sendProblem } from '../problem.js';
import { documentJson } from './json.js';
import { uploadRouter } from './upload.js';

/** `?wait=true` answers once the document is indexed (or failed) instead of at once. */
const waitOption = (req: Request) => ({ wait: req.query.wait === 'true' || req.query.wait === '1' });

export function docsRouter(engine: Engine): Router {
  const router = Router({ mergeParams: true });
  router.use('/upload', uploadRouter(engine));

  router.get('/', async (req, res) => {
    const page = await engine.documents.list(ctxOf(res), req.query);
    if (page.isErr()) return sendProblem(req, res, page.error);
    res.json({ data: page.value.items.map(documentJson), hasMore: page.value.nextCursor !== null, nextCursor: page.value.nextCursor });
  });

  router.post('/', async (req, res) => {
    const doc = await engine.documents.create(ctxOf(res), req.body, waitOption(req));
    if (doc.isErr()) return sendProblem(req, res, doc.error);
    res.status(201).location(`${req.baseUrl}/${doc.value.id}`).json(documentJson(doc.value));
  });

  router.post('/bulk', async (req, res) => {
    const results = await engine.documents.bulk(ctxOf(res), req.body);
    if (results.isErr()) return sendProblem(req, res, results.error);
    res.json({ results: results.value });
  });

  router.get('/:id', async (req, res) => {
    const doc = await engine.documents.get(ctxOf(res), req.params.id);
    if (doc.isErr()) return sendProblem(req, res, doc.error);
    res.json(documentJson(doc.value));
  });

  router.patch('/:id', async (req, res) => {
    const doc = await engine.documents.update(ctxOf(res), req.params.id, req.body, waitOption(req));
    if (doc.isErr()) return sendProblem(req, res, doc.error);
    res.json(documentJson(doc.value));
  });

  router.post('/:id/reindex', async (req, res) => {
    const doc = await engine.documents.reindex(ctxOf(res), req.params.id, waitOption(req));
    if (doc.isErr()) return sendProblem(req, res, doc.error);
    res.status(waitOption(req).wait ? 200 : 202).json(documentJson(doc.value));
  });

  router.delete('/:id', async (req, res) => {
    const done = await engine.documents.delete(ctxOf(res), req.params.id);
    if (done.isErr()) return sendProblem(req, res, done.error);
    res.status(204).end();
  });

  return router;
}
