import type { Engine } from '@panya/core';
import { Router } from 'express';
import { ctxOf } from '../context.js';
import { rateLimitHeaders, requestLocale, sendProblem } from '../problem.js';
import { nonJsonBody } from '../routing.js';
import { abortOnClose } from '../api/handler.js';

/** Heartbeat comments keep proxies from closing an idle stream. */
export const SSE_HEARTBEAT_MS = 15_000;

/** `POST /chat`: the server-sent events of core's chat stream (the only streaming route). */
export function chatRouter(engine: Engine, options: { heartbeatMs?: number } = {}): Router {
  const router = Router({ mergeParams: true });
  router.post('/chat', async (req, res) => {
    const notJson = nonJsonBody(req);
    if (notJson) return sendProblem(req, res, notJson);
    const controller = abortOnClose(res);
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
