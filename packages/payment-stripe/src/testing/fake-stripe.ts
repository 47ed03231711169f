/**
 * A local Stripe API for tests: it speaks Stripe's wire format (form-encoded bodies, the
 * `{error: {type, message, param}}` envelope, `Idempotency-Key` replay) for the calls Panya
 * makes, so the real SDK runs against it. Like Stripe, it refuses a quantity on metered
 * prices and a second billing meter event with an identifier it already holds.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';

export interface FakePrice {
  interval: 'month' | 'year';
  usageType: 'licensed' | 'metered';
}

export interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  created: number;
  metadata: Record<string, string>;
  items: { id?: string; price: string; quantity?: number; currentPeriodEnd: number }[];
}

/** A proration line Stripe adds to the next invoice when a subscription's licensed prices change mid-term. */
export interface FakeProrationItem {
  subscription: string;
  price: string;
  /** -1: credit for the unused rest of the term on the old price; +1: the new price for the same rest. */
  direction: -1 | 1;
  quantity: number;
  periodStart: number;
  periodEnd: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Record<string, unknown>;
}

type Params = Record<string, unknown>;

const STRIPE_API = Symbol.for('panya.error.fake-stripe-api');

class StripeApiError extends Error {
  readonly [STRIPE_API] = true;
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

function isStripeApiError(error: unknown): error is StripeApiError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[STRIPE_API] === true;
}

const invalid = (message: string, param?: string) => new StripeApiError(400, 'invalid_request_error', message, param);
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface FakeStripe {
  url: string;
  /** Prices by id; tests add their catalog here. */
  prices: Map<string, FakePrice>;
  checkoutSessions: Params[];
  /** Accepted billing meter events, in order. */
  meterEvents: { identifier: string; event_name: string; payload: Record<string, string>; timestamp: number }[];
  subscriptions: FakeSubscription[];
  /** Proration lines of subscription updates with `proration_behavior=create_prorations` (the default). */
  prorations: FakeProrationItem[];
  requests: RecordedRequest[];
  addSubscription(sub: Omit<FakeSubscription, 'id' | 'created'> & { created?: number }): FakeSubscription;
  /**
   * The customer pays for checkout session `sessionId`: a customer (the session's, or a new one)
   * and an active subscription with the session's prices and `subscription_data.metadata`.
   */
  completeCheckout(sessionId: string, options?: { currentPeriodEnd?: number }): FakeSubscription;
  /** A webhook event about `sub` as Stripe sends it (the JSON body); sign it with the SDK's test helper. */
  subscriptionEvent(type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted', sub: FakeSubscription, options?: { created?: number }): string;
  /**
   * Handle the next `n` requests to `path` (those `match` accepts) but drop the connection
   * instead of answering: the request took effect, the caller never hears so.
   */
  dropResponses(path: string, n: number, match?: (params: Params) => boolean): void;
  /**
   * Answer the next `n` requests to `path`, then handle the following ones but hold their answers
   * back (until `holdResponses(path, Infinity)` or `close`): the caller waits on a request that took effect.
   */
  holdResponses(path: string, n: number): void;
  close(): Promise<void>;
}

export async function startFakeStripe(options: { secretKey?: string } = {}): Promise<FakeStripe> {
  const prices = new Map<string, FakePrice>();
  const checkoutSessions: Params[] = [];
  const meterEvents: FakeStripe['meterEvents'] = [];
  const subscriptions: FakeSubscription[] = [];
  const prorations: FakeProrationItem[] = [];
  const requests: RecordedRequest[] = [];
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  const drops = new Map<string, { left: number; match: (params: Params) => boolean }>();
  const holds = new Map<string, { left: number; held: (() => void)[] }>();

  function checkoutSession(params: Params): Params {
    if (params.mode !== 'subscription' && params.mode !== 'payment' && params.mode !== 'setup') throw invalid('Missing required param: mode.', 'mode');
    if (typeof params.success_url !== 'string') throw invalid('Missing required param: success_url.', 'success_url');
    const items = params.line_items;
    if (!Array.isArray(items) || items.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    items.forEach((item: Params, i) => {
      const price = prices.get(String(item.price));
      if (!price) throw invalid(`No such price: '${String(item.price)}'`, `line_items[${i}][price]`);
      if (price.usageType === 'metered' && item.quantity !== undefined) {
        throw invalid(`Quantity should not be specified where usage_type is \`metered\`. Remove quantity from \`line_items[${i}]\``, `line_items[${i}][quantity]`);
      }
      if (price.usageType === 'licensed' && item.quantity === undefined) throw invalid(`Quantity is required. Add \`quantity\` to \`line_items[${i}]\``, `line_items[${i}][quantity]`);
    });
    const sessionId = id('cs_test');
    const session = { id: sessionId, object: 'checkout.session', mode: params.mode, customer: params.customer ?? null, client_reference_id: params.client_reference_id ?? null, metadata: params.metadata ?? {}, success_url: params.success_url, cancel_url: params.cancel_url ?? null, status: 'open', url: `https://checkout.stripe.com/c/pay/${sessionId}`, line_items: items, subscription_data: params.subscription_data ?? null };
    checkoutSessions.push(session);
    return session;
  }

  function meterEvent(params: Params): Params {
    const eventName = params.event_name;
    if (typeof eventName !== 'string' || !eventName) throw invalid('Missing required param: event_name.', 'event_name');
    const payload = (params.payload ?? {}) as Record<string, string>;
    if (!payload.stripe_customer_id) throw invalid('Missing required param: payload[stripe_customer_id].', 'payload[stripe_customer_id]');
    if (payload.value === undefined || !/^-?\d+(\.\d+)?$/.test(payload.value)) throw invalid('Invalid payload[value]: must be a number.', 'payload[value]');
    const identifier = typeof params.identifier === 'string' ? params.identifier : id('mev');
    if (meterEvents.some((e) => e.identifier === identifier)) throw invalid(`An event already exists with identifier ${identifier}.`, 'identifier');
    const timestamp = params.timestamp === undefined ? Math.floor(Date.now() / 1000) : Number(params.timestamp);
    const event = { identifier, event_name: eventName, payload, timestamp };
    meterEvents.push(event);
    return { object: 'billing.meter_event', created: Math.floor(Date.now() / 1000), livemode: false, ...event };
  }

  function subscriptionObject(sub: FakeSubscription): Params {
    return {
      id: sub.id,
      object: 'subscription',
      customer: sub.customer,
      status: sub.status,
      created: sub.created,
      metadata: sub.metadata,
      items: {
        object: 'list',
        has_more: false,
        data: sub.items.map((item) => {
          const price = prices.get(item.price);
          item.id ??= id('si');
          return {
            id: item.id,
            object: 'subscription_item',
            ...(item.quantity !== undefined ? { quantity: item.quantity } : {}),
            current_period_end: item.currentPeriodEnd,
            price: { id: item.price, object: 'price', recurring: price ? { interval: price.interval, usage_type: price.usageType } : null },
          };
        }),
      },
    };
  }

  /** `POST /v1/subscriptions/:id`: swaps items (`items[n][id]` + `deleted`, or a new `price`), prorating licensed ones. */
  function updateSubscription(sub: FakeSubscription, params: Params): Params {
    if (sub.status === 'canceled') throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    const changes = (params.items ?? []) as Params[];
    const items = sub.items.map((item) => ({ ...item }));
    const end = Math.max(...sub.items.map((i) => i.currentPeriodEnd), Math.floor(Date.now() / 1000));
    const now = Math.floor(Date.now() / 1000);
    const removed: typeof items = [];
    const added: typeof items = [];
    changes.forEach((change, i) => {
      if (change.id !== undefined) {
        const at = items.findIndex((item) => item.id === change.id);
        if (at < 0) throw invalid(`No such subscription item: '${String(change.id)}'`, `items[${i}][id]`);
        if (change.deleted === 'true') removed.push(...items.splice(at, 1));
        return;
      }
      const price = prices.get(String(change.price));
      if (!price) throw invalid(`No such price: '${String(change.price)}'`, `items[${i}][price]`);
      if (price.usageType === 'metered' && change.quantity !== undefined) throw invalid(`Quantity should not be specified where usage_type is \`metered\`. Remove quantity from \`items[${i}]\``, `items[${i}][quantity]`);
      if (items.some((item) => item.price === change.price)) throw invalid(`Cannot add multiple subscription items with the same price: ${String(change.price)}.`, `items[${i}][price]`);
      const item = { id: id('si'), price: String(change.price), ...(change.quantity !== undefined ? { quantity: Number(change.quantity) } : price.usageType === 'licensed' ? { quantity: 1 } : {}), currentPeriodEnd: end };
      items.push(item);
      added.push(item);
    });
    if ((params.proration_behavior ?? 'create_prorations') !== 'none') {
      for (const [list, direction] of [[removed, -1], [added, 1]] as const) {
        for (const item of list) if (prices.get(item.price)?.usageType === 'licensed') prorations.push({ subscription: sub.id, price: item.price, direction, quantity: item.quantity ?? 1, periodStart: now, periodEnd: end });
      }
    }
    sub.items = items;
    if (params.metadata) sub.metadata = { ...sub.metadata, ...(params.metadata as Record<string, string>) };
    return subscriptionObject(sub);
  }

  function route(method: string, path: string, params: Params): Params {
    if (method === 'POST' && path === '/v1/checkout/sessions') return checkoutSession(params);
    if (method === 'POST' && path === '/v1/billing/meter_events') return meterEvent(params);
    if (method === 'GET' && path === '/v1/subscriptions') {
      const status = params.status ?? 'active';
      const limit = Math.min(100, Number(params.limit ?? 10));
      const matches = subscriptions
        .filter((s) => (params.customer === undefined || s.customer === params.customer) && (status === 'all' || s.status === status))
        .sort((a, b) => b.created - a.created);
      return { object: 'list', url: '/v1/subscriptions', has_more: matches.length > limit, data: matches.slice(0, limit).map(subscriptionObject) };
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (sub) {
      const found = subscriptions.find((s) => s.id === sub[1]);
      if (!found) throw new StripeApiError(404, 'invalid_request_error', `No such subscription: '${sub[1]}'`, 'id', 'resource_missing');
      if (method === 'GET') return subscriptionObject(found);
      if (method === 'POST') return updateSubscription(found, params);
      if (method === 'DELETE') {
        found.status = 'canceled';
        return subscriptionObject(found);
      }
    }
    throw new StripeApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const params = (method === 'GET' || method === 'DELETE' ? qs.parse(url.search.slice(1)) : qs.parse(raw)) as Params;
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    requests.push({ method, path: url.pathname, idempotencyKey, params });

    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      const drop = drops.get(url.pathname);
      if (drop && drop.left > 0 && drop.match(params)) {
        drop.left--;
        req.socket.destroy();
        return;
      }
      const answer = () => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
        res.end(body);
      };
      const hold = holds.get(url.pathname);
      if (hold && hold.left <= 0) return void hold.held.push(answer);
      if (hold) hold.left--;
      answer();
    };

    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!key || (options.secretKey && key !== options.secretKey)) {
      send(401, JSON.stringify({ error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${key ? `${key.slice(0, 8)}…` : '(none)'}` } }));
      return;
    }

    const fingerprint = createHash('sha256').update(`${method} ${url.pathname} ${raw}`).digest('hex');
    if (method === 'POST' && idempotencyKey) {
      const seen = idempotent.get(idempotencyKey);
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          send(400, JSON.stringify({ error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.` } }));
        } else {
          send(seen.status, seen.body, { 'idempotent-replayed': 'true', 'idempotency-key': idempotencyKey });
        }
        return;
      }
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(route(method, url.pathname, params));
    } catch (error) {
      if (!isStripeApiError(error)) throw error;
      status = error.status;
      body = JSON.stringify({ error: { type: error.type, message: error.message, ...(error.param ? { param: error.param } : {}), ...(error.code ? { code: error.code } : {}) } });
    }
    // Stripe stores the first answer (success or a 4xx) under the key and replays it.
    if (method === 'POST' && idempotencyKey) idempotent.set(idempotencyKey, { fingerprint, status, body });
    send(status, body, idempotencyKey ? { 'idempotency-key': idempotencyKey } : {});
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    prices,
    checkoutSessions,
    meterEvents,
    subscriptions,
    prorations,
    requests,
    addSubscription(input) {
      const sub = { id: id('sub'), created: input.created ?? Math.floor(Date.now() / 1000) + subscriptions.length, ...input };
      subscriptions.push(sub);
      return sub;
    },
    completeCheckout(sessionId, options = {}) {
      const session = checkoutSessions.find((c) => c.id === sessionId);
      if (!session) throw new Error(`No such checkout session: ${sessionId}`);
      const customer = typeof session.customer === 'string' ? session.customer : id('cus');
      const end = options.currentPeriodEnd ?? Math.floor(Date.now() / 1000) + 30 * 86_400;
      const metadata = ((session.subscription_data as Params | null)?.metadata ?? {}) as Record<string, string>;
      const items = (session.line_items as Params[]).map((item) => ({ id: id('si'), price: String(item.price), ...(item.quantity !== undefined ? { quantity: Number(item.quantity) } : {}), currentPeriodEnd: end }));
      session.status = 'complete';
      session.customer = customer;
      const sub = { id: id('sub'), created: Math.floor(Date.now() / 1000) + subscriptions.length, customer, status: 'active', metadata, items };
      subscriptions.push(sub);
      return sub;
    },
    subscriptionEvent(type, sub, options = {}) {
      return JSON.stringify({ id: id('evt'), object: 'event', api_version: '2025-01-27.acacia', type, created: options.created ?? Math.floor(Date.now() / 1000), livemode: false, data: { object: subscriptionObject(sub) } });
    },
    dropResponses(path, n, match = () => true) {
      drops.set(path, { left: n, match });
    },
    holdResponses(path, n) {
      const held = holds.get(path)?.held ?? [];
      holds.set(path, { left: n, held: [] });
      // Held answers go out now when the hold is lifted (n > 0); the connections of killed callers are gone anyway.
      if (n > 0) for (const answer of held) answer();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
