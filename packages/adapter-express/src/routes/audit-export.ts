import type { Engine } from '@panya/core';
import { Router } from 'express';
import { ctxOf } from '../context.js';
import { sendProblem } from '../problem.js';

/** `GET /audit/export`: the audit log oldest first as JSON lines, streamed a bounded page at a time. */
export function auditExportRouter(engine: Engine): Router {
  const router = Router({ mergeParams: true });
  router.get('/audit/export', async (req, res) => {
    const lines = await engine.audit.export(ctxOf(res));
    if (lines.isErr()) return sendProblem(req, res, lines.error);
    res.status(200).set({ 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Content-Disposition': 'attachment; filename="audit.jsonl"', 'Cache-Control': 'no-store' });
    for await (const line of lines.value) {
      if (res.destroyed) break;
      // Waits for the socket to drain: a slow reader holds one page, not the whole log.
      if (!res.write(line)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  });
  return router;
}
