import type { Engine } from '@panya/core';
import type { RequestHandler } from 'express';
import { sendProblem } from '../problem.js';

/**
 * `POST /api/billing/webhook`: the payment processor's events. No API key: the `Stripe-Signature`
 * header, verified over the raw body, is the credential. A replayed event answers 200 and
 * changes nothing, so the processor stops retrying.
 */
export function billingWebhook(engine: Engine): RequestHandler {
  return async (req, res) => {
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const outcome = await engine.billing.webhook(raw, req.get('stripe-signature'));
    if (outcome.isErr()) return sendProblem(req, res, outcome.error);
    res.json(outcome.value);
  };
}
