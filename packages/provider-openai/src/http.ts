/** HTTP helpers shared by the OpenAI-compatible clients: error messages, retry timing. */

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 60_000;

/** Exponential backoff with jitter, never shorter than what the server asked for. */
export function backoffMs(attempt: number, retryAfter: number | undefined): number {
  const backoff = BASE_DELAY_MS * 2 ** attempt * (1 + Math.random() * 0.25);
  return Math.min(MAX_DELAY_MS, Math.max(backoff, retryAfter ?? 0));
}

export async function apiErrorMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  if (!text) return '';
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === 'string'
        ? parsed.error
        : typeof parsed.error?.message === 'string'
          ? parsed.error.message
          : typeof parsed.message === 'string'
            ? parsed.message
            : undefined;
    if (message) return ` — ${message}`;
  } catch {
    // not JSON: fall through to the raw text
  }
  return ` — ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/** `retry-after-ms` (OpenAI) or `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
