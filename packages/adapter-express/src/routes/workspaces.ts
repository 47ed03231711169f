import { workspaceSettings, type Engine, type WorkspaceView } from '@panya/core';
import { Router } from 'express';
import { ctxOf } from '../context.js';
import { sendProblem } from '../problem.js';

/** The public shape of a workspace: no internal tenant id. */
export function workspaceJson({ tenantId: _tenant, ...ws }: WorkspaceView) {
  return ws;
}

/**
 * Workspace CRUD with restore (`/api/workspaces`), for a tenant-wide `admin` key or an
 * owner/admin session. DELETE soft-deletes (30-day recovery); the cleanup job hard-deletes.
 */
export function workspacesRouter(engine: Engine): Router {
  const router = Router({ mergeParams: true });

  router.get('/', async (req, res) => {
    const list = await engine.workspaces.list(ctxOf(res));
    if (list.isErr()) return sendProblem(req, res, list.error);
    res.json({ data: list.value.map(workspaceJson), ...workspaceSettings(ctxOf(res).tenant) });
  });

  router.post('/', async (req, res) => {
    const ws = await engine.workspaces.create(ctxOf(res), req.body);
    if (ws.isErr()) return sendProblem(req, res, ws.error);
    res.status(201).location(`${req.baseUrl}/${ws.value.id}`).json(workspaceJson(ws.value));
  });

  router.get('/:id', async (req, res) => {
    const ws = await engine.workspaces.get(ctxOf(res), req.params.id);
    if (ws.isErr()) return sendProblem(req, res, ws.error);
    res.json(workspaceJson(ws.value));
  });

  router.patch('/:id', async (req, res) => {
    const ws = await engine.workspaces.update(ctxOf(res), req.params.id, req.body);
    if (ws.isErr()) return sendProblem(req, res, ws.error);
    res.json(workspaceJson(ws.value));
  });

  router.delete('/:id', async (req, res) => {
    const ws = await engine.workspaces.delete(ctxOf(res), req.params.id);
    if (ws.isErr()) return sendProblem(req, res, ws.error);
    res.json(workspaceJson(ws.value));
  });

  router.post('/:id/restore', async (req, res) => {
    const ws = await engine.workspaces.restore(ctxOf(res), req.params.id);
    if (ws.isErr()) return sendProblem(req, res, ws.error);
    res.json(workspaceJson(ws.value));
  });

  return router;
}
