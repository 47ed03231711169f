import type { DocumentRecord, Engine } from '@panya/core';
import { Router } from 'express';
import { ctxOf } from '../context.js';
import { sendProblem } from '../problem.js';

/** The public shape of a document: no internal tenant id. */
export function documentJson({ tenantId: _tenant, ...doc }: DocumentRecord) {
  return doc;
}

export function docsRouter(engine: Engine): Router {
  const router = Router({ mergeParams: true });

  router.get('/', async (req, res) => {
    const page = await engine.documents.list(ctxOf(res), req.query);
    if (page.isErr()) return sendProblem(req, res, page.error);
    res.json({ data: page.value.items.map(documentJson), hasMore: page.value.nextCursor !== null, nextCursor: page.value.nextCursor });
  });

  router.post('/', async (req, res) => {
    const doc = await engine.documents.create(ctxOf(res), req.body);
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
    const doc = await engine.documents.update(ctxOf(res), req.params.id, req.body);
    if (doc.isErr()) return sendProblem(req, res, doc.error);
    res.json(documentJson(doc.value));
  });

  router.delete('/:id', async (req, res) => {
    const done = await engine.documents.delete(ctxOf(res), req.params.id);
    if (done.isErr()) return sendProblem(req, res, done.error);
    res.status(204).end();
  });

  return router;
}
