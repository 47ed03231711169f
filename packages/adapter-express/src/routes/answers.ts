import type { Engine } from '@panya/core';
import { Router, type Request, type Response } from 'express';
import { ctxOf } from '../context.js';
import { rateLimitHeaders, requestLocale, sendProblem } from '../problem.js';

/** Heartbeat comments keep proxies from closing an idle stream. */
export const SSE_HEARTBEAT_MS = 15_000;

/** Aborts when the client goes away, so generation stops with it (no orphan work). */
function abortOnClose(req: Request, res: Response): AbortController {
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  return controller;
}

export function answersRouter(engine: Engine, options: { heartbeatMs?: number } = {}): Router {
  const router = Router({ mergeParams: true });

  router.post('/answer', async (req, res) => {
    const controller = abortOnClose(req, res);
    const answered = await engine.answers.answer(ctxOf(res), req.body, { via: 'rest' }, controller.signal);
    if (answered.isErr()) return sendProblem(req, res, answered.error, requestLocale(req, req.body?.locale, req.body?.query));
    if (answered.value.rateLimit) res.set(rateLimitHeaders(answered.value.rateLimit));
    res.json(answered.value.value);
  });

  router.post('/chat', async (req, res) => {
    const controller = abortOnClose(req, res);
    const started = await engine.chat.chat(ctxOf(res), req.body, controller.signal);
    if (started.isErr()) return sendProblem(req, res, started.error, requestLocale(req, req.body?.locale, req.body?.query));
    if (started.value.rateLimit) res.set(rateLimitHeaders(started.value.rateLimit));
    res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    const heartbeat = setInterval(() => res.write(': ping\n\n'), options.heartbeatMs ?? SSE_HEARTBEAT_MS);
    try {
      for await (const { event, data } of started.value.events) {
        if (controller.signal.aborted) break;
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      }
    } finally {
      clearInterval(heartbeat);
      res.end();
    }
  });

  return router;
}
