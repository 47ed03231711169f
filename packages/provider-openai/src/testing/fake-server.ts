/**
 * A local HTTP server speaking OpenAI's wire format — `POST /v1/embeddings` and
 * `POST /v1/chat/completions` (JSON, or SSE `chat.completion.chunk` events ending in `[DONE]`),
 * errors as `{error: {message, type}}` with their status and `Retry-After` — for testing the
 * OpenAI-compatible providers, and anything built on them, without a network.
 *
 * By default it answers every request correctly (deterministic vectors, a canned answer); a test
 * swaps in its own `handle(...)` to return errors, break streams or stall, and reads what was sent
 * from `requests`.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The body of an `/embeddings` request. */
export interface EmbeddingsBody {
  model: string;
  input: string[];
  encoding_format?: string;
  dimensions?: number;
}

/** The body of a `/chat/completions` request. */
export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  max_tokens?: number;
}

export interface FakeOpenAIRequest {
  method: string;
  /** Path and query as sent, e.g. `/v1/embeddings`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (`EmbeddingsBody` or `ChatBody`). */
  body: any;
  /** Resolves when the client closed the connection before the response ended. */
  closedEarly: Promise<void>;
}

/** Answers one request; `n` counts requests from 1 since the last `reset()`. */
export type FakeOpenAIHandler = (req: FakeOpenAIRequest, res: ServerResponse, n: number) => void | Promise<void>;

export interface FakeOpenAIOptions {
  /** Width of embeddings when a request names no `dimensions`. Default 4. */
  dimension?: number;
  /** The pieces the default chat answer streams (or a function of the request and its number). Default `DEFAULT_ANSWER`. */
  answer?: readonly string[] | ((req: FakeOpenAIRequest, n: number) => readonly string[]);
}

export interface FakeOpenAI {
  /** Base URL to give a client, ending in `/v1`. */
  readonly url: string;
  /** Every request since the last `reset()`, in arrival order. */
  readonly requests: FakeOpenAIRequest[];
  /** Answers the following requests with `handler`; `null` restores the default answers. */
  handle(handler: FakeOpenAIHandler | null): void;
  /** Forgets recorded requests and restores the default answers. */
  reset(): void;
  /** The default answer for a request (what a well-behaved server would send). */
  answer(req: FakeOpenAIRequest, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** The canned grounded answer: it cites passage 1. */
export const DEFAULT_ANSWER: readonly string[] = ['Refunds take ', '7 business days', ' [1].'];

/**
 * A model's untidy citing, varied by `seed`: markers of passages that exist and of passages that
 * do not (up to [12]), several in one bracket ("[2, 9]"), and markers split across stream pieces
 * ("[1" + "1]", "[" + "3]", "[2," + " 5]"). What the server sends on must still cite only real passages.
 */
export function messyCitations(seed: number): string[] {
  let state = (seed * 2654435761) >>> 0 || 1;
  const next = (max: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % max;
  };
  const marker = () => {
    const count = 1 + next(3);
    return `[${Array.from({ length: count }, () => 1 + next(12)).join(next(2) ? ', ' : ',')}]`;
  };
  const text = ['The answer is in the passages', ' Refunds take 7 business days', ' Orders ship within 2 days', ' Keep the receipt'].map((s) => `${s} ${marker()}${next(2) ? marker() : ''}.`).join('') + ` See also ${marker()}`;
  // Cut anywhere, so some cuts fall inside markers.
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const len = 1 + next(7);
    pieces.push(text.slice(at, at + len));
    at += len;
  }
  return pieces;
}

/** Starts the server on a free local port. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: FakeOpenAIRequest[] = [];
  let handler: FakeOpenAIHandler | null = null;

  const answer = async (req: FakeOpenAIRequest, res: ServerResponse): Promise<void> => {
    const n = requests.indexOf(req) + 1;
    if (req.method === 'POST' && req.url === '/v1/embeddings') return sendEmbeddings(res, req.body as EmbeddingsBody, { dims: (req.body as EmbeddingsBody).dimensions ?? options.dimension ?? 4 });
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      const pieces = typeof options.answer === 'function' ? options.answer(req, n) : (options.answer ?? DEFAULT_ANSWER);
      if ((req.body as ChatBody).stream) return streamChat(res, pieces);
      return sendCompletion(res, pieces.join(''));
    }
    sendError(res, 404, `no route ${req.method} ${req.url}`, { type: 'invalid_request_error' });
  };

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        return sendError(res, 400, 'We could not parse the JSON body of your request.', { type: 'invalid_request_error' });
      }
      const closedEarly = new Promise<void>((resolve) => res.on('close', () => !res.writableFinished && resolve()));
      const rec: FakeOpenAIRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body, closedEarly };
      requests.push(rec);
      void Promise.resolve((handler ?? answer)(rec, res, requests.length)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  return {
    url,
    requests,
    handle(next) {
      handler = next;
    },
    reset() {
      requests.length = 0;
      handler = null;
    },
    answer,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A deterministic, un-normalised vector per text, so a test can tell which input a vector belongs to. */
export function fakeEmbedding(text: string, dims = 4): number[] {
  return Array.from({ length: dims }, (_, i) => (text.length + 1) * (i + 1) + ((text.charCodeAt(0) || 0) % (i + 2)));
}

/** Tokens the fake reports for an input: its whitespace-separated words (at least 1). */
export function fakeTokenCount(text: string): number {
  return Math.max(1, text.split(/\s+/u).filter(Boolean).length);
}

/** A successful `/embeddings` response: one `fakeEmbedding` per input, with `usage`. */
export function sendEmbeddings(res: ServerResponse, body: Pick<EmbeddingsBody, 'model' | 'input'>, opts: { reverse?: boolean; dims?: number; usage?: boolean } = {}): void {
  const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text, opts.dims ?? 4) }));
  if (opts.reverse) data.reverse();
  const tokens = body.input.reduce((n, t) => n + fakeTokenCount(t), 0);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data, model: body.model, ...(opts.usage === false ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }) }));
}

/** One `chat.completion.chunk` server-sent event. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): string {
  const body = {
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion.chunk',
    created: 1741570283,
    model: 'gpt-4o-mini-2024-07-18',
    service_tier: 'default',
    system_fingerprint: 'fp_06737a9306',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** The final usage event of a stream asked for `stream_options.include_usage`. */
export function usageChunk(prompt: number, completion: number): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion.chunk',
    created: 1741570283,
    model: 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_06737a9306',
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  })}\n\n`;
}

/**
 * A complete streamed answer: role, content pieces, finish, usage (321 in, 17 out), `[DONE]`;
 * each event split across two writes mid-line, as networks do.
 */
export async function streamChat(res: ServerResponse, pieces: readonly string[] = DEFAULT_ANSWER, opts: { usage?: boolean; done?: boolean } = {}): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const events = [chatChunk({ role: 'assistant', content: '', refusal: null }), ...pieces.map((p) => chatChunk({ content: p })), chatChunk({}, 'stop')];
  if (opts.usage !== false) events.push(usageChunk(321, 17));
  if (opts.done !== false) events.push('data: [DONE]\n\n');
  for (const event of events) {
    if (res.destroyed) return;
    const cut = Math.floor(event.length / 2);
    res.write(event.slice(0, cut));
    await new Promise((r) => setImmediate(r));
    res.write(event.slice(cut));
  }
  res.end();
}

/** A non-streamed `chat.completion`. */
export function sendCompletion(res: ServerResponse, content: string, usage = { prompt_tokens: 250, completion_tokens: 30 }): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-abc123',
      object: 'chat.completion',
      created: 1741570283,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    }),
  );
}

/** An API error as OpenAI sends it; pass `retry-after` (seconds) or `retry-after-ms` in `headers` for a 429 or 503. */
export function sendError(res: ServerResponse, status: number, message: string, opts: { type?: string; headers?: Record<string, string> } = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...opts.headers });
  res.end(JSON.stringify({ error: { message, type: opts.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'), param: null, code: null } }));
}
