/**
 * Cloudflare for SaaS: custom hostnames (`/zones/{zone}/custom_hostnames`) with the hostname
 * token, cache purge (`/zones/{zone}/purge_cache`) with the purge token. Every response is the
 * `{success, errors, messages, result}` envelope.
 *
 * Mapping: Active only when the hostname and its certificate are both `active`; blocked, moved,
 * deleted and `*_timed_out` are Failed with their cause; an unreachable API is `unknown`.
 */
import { Resolver } from 'node:dns/promises';
import type {
  EdgeHostnameRef,
  EdgeObservation,
  EdgeProvider,
  EdgePurge,
  EdgeRegistration,
  EdgeRegistrationRequest,
  HostnameProblem,
  OwnershipRecord,
} from '@panya/core';
import { z } from 'zod';

export const CLOUDFLARE_API_URL = 'https://api.cloudflare.com/client/v4';
/** Cloudflare accepts at most 30 files, prefixes or hosts per purge request (non-Enterprise zones). */
export const PURGE_BATCH = 30;
/** Cloudflare error 1406: "Duplicate custom hostname found." */
const DUPLICATE_HOSTNAME = 1406;

export interface CloudflareEdgeOptions {
  apiUrl?: string;
  zoneId: string;
  hostnameToken: string;
  purgeToken: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Resolvers (`ip` or `ip:port`) used to read the published ownership TXT; the system's by default. */
  dnsServers?: readonly string[];
}

/** Answers that mean "no such record (yet)"; anything else is a resolver problem. */
const ABSENT_DNS = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);
/** Cloudflare's own words for a TXT that is there but wrong. */
const MISMATCH_WORDS = /\b(does not match|mismatch|incorrect|invalid)\b/i;

const envelope = z.object({
  success: z.boolean(),
  errors: z.array(z.object({ code: z.number(), message: z.string() }).loose()).default([]),
  messages: z.array(z.unknown()).default([]),
  result: z.unknown(),
});

const customHostname = z
  .object({
    id: z.string(),
    hostname: z.string(),
    status: z.string(),
    ssl: z
      .object({
        status: z.string(),
        validation_errors: z.array(z.object({ message: z.string() }).loose()).optional(),
      })
      .loose()
      .nullish(),
    ownership_verification: z.object({ type: z.string().optional(), name: z.string(), value: z.string() }).loose().nullish(),
    verification_errors: z.array(z.string()).nullish(),
  })
  .loose();
type CustomHostname = z.infer<typeof customHostname>;

type Call =
  | { ok: true; result: unknown }
  /** Cloudflare answered with an error envelope (a 4xx): a decision, not an outage. */
  | { ok: false; kind: 'refused'; status: number; errors: { code: number; message: string }[] }
  /** Network failure, timeout, 5xx, or a body that is not the envelope. */
  | { ok: false; kind: 'unavailable'; reason: string };

const REFUSED_HOSTNAME = new Set(['blocked', 'pending_blocked', 'test_blocked', 'test_failed']);
const DELETED_HOSTNAME = new Set(['deleted', 'pending_deletion']);
const FAILED_SSL = new Set(['expired', 'deleted', 'pending_deletion', 'deactivating', 'inactive']);

function describe(errors: { code: number; message: string }[]): string {
  return errors.map((e) => `${e.code}: ${e.message}`).join('; ') || 'no error detail';
}

/** Translates one custom hostname object into what core understands. */
export function observe(ch: CustomHostname): EdgeObservation {
  const ownership: OwnershipRecord | undefined = ch.ownership_verification
    ? { name: ch.ownership_verification.name, value: ch.ownership_verification.value }
    : undefined;
  const ssl = ch.ssl?.status ?? 'initializing';
  const failed = (problem: HostnameProblem): EdgeObservation => ({ state: 'failed', problem, ...(ownership ? { ownership } : {}) });

  if (ch.status === 'active' && ssl === 'active') return { state: 'active', ...(ownership ? { ownership } : {}) };
  if (REFUSED_HOSTNAME.has(ch.status)) return failed({ cause: 'edge_refused', detail: `hostname ${ch.status}` });
  if (DELETED_HOSTNAME.has(ch.status)) return failed({ cause: 'edge_refused', detail: `hostname ${ch.status}` });
  if (ch.status === 'moved') {
    return failed({ cause: 'dns_not_propagated', detail: 'hostname moved: its CNAME no longer points to the edge target' });
  }
  if (ssl === 'validation_timed_out') return failed({ cause: 'dns_not_propagated', detail: `certificate ${ssl}` });
  if (ssl.endsWith('_timed_out') || FAILED_SSL.has(ssl)) return failed({ cause: 'edge_refused', detail: `certificate ${ssl}` });

  const waiting = [...(ch.verification_errors ?? []), ...(ch.ssl?.validation_errors ?? []).map((e) => e.message)];
  const mismatch = waiting.some((m) => /txt|token|ownership/i.test(m) && MISMATCH_WORDS.test(m));
  return {
    state: 'verifying',
    problem: waiting.length > 0 ? { cause: mismatch ? 'txt_mismatch' : 'dns_not_propagated', detail: waiting.join('; ') } : null,
    ...(ownership ? { ownership } : {}),
  };
}

export class CloudflareEdge implements EdgeProvider {
  readonly id = 'cloudflare';
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly resolver: Resolver;

  constructor(private readonly options: CloudflareEdgeOptions) {
    this.base = `${(options.apiUrl ?? CLOUDFLARE_API_URL).replace(/\/+$/, '')}/zones/${encodeURIComponent(options.zoneId)}`;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.resolver = new Resolver({ timeout: Math.min(this.timeoutMs, 3_000), tries: 2 });
    if (options.dnsServers?.length) this.resolver.setServers([...options.dnsServers]);
  }

  /**
   * While Cloudflare still waits for ownership, the published TXT tells which problem it is: a
   * record that is there with another value is `txt_mismatch` (the tenant mistyped it); none at
   * all is `dns_not_propagated`. A resolver problem leaves Cloudflare's own words.
   */
  private async precise(observation: EdgeObservation): Promise<EdgeObservation> {
    if (observation.state !== 'verifying' || !observation.problem || !observation.ownership || observation.problem.cause === 'txt_mismatch') return observation;
    const { name, value } = observation.ownership;
    let values: string[];
    try {
      values = (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (error) {
      if (!ABSENT_DNS.has((error as { code?: string }).code ?? '')) return observation;
      values = [];
    }
    if (values.length > 0 && !values.includes(value)) {
      return { ...observation, problem: { cause: 'txt_mismatch', detail: `TXT at ${name} is ${values.map((v) => JSON.stringify(v)).join(', ')}, not ${JSON.stringify(value)} (${observation.problem.detail})` } };
    }
    return observation;
  }

  private async call(method: string, path: string, token: string, body?: unknown): Promise<Call> {
    let res: Response;
    try {
      res = await this.fetch(`${this.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return { ok: false, kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
    }
    const text = await res.text().catch(() => '');
    let parsed: z.infer<typeof envelope> | undefined;
    try {
      parsed = envelope.parse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (res.status >= 500 || res.status === 429 || !parsed) {
      return { ok: false, kind: 'unavailable', reason: `HTTP ${res.status}${parsed ? ` (${describe(parsed.errors)})` : ''}` };
    }
    if (!res.ok || !parsed.success) return { ok: false, kind: 'refused', status: res.status, errors: parsed.errors };
    return { ok: true, result: parsed.result };
  }

  async register(request: EdgeRegistrationRequest): Promise<EdgeRegistration> {
    const call = await this.call('POST', '/custom_hostnames', this.options.hostnameToken, {
      hostname: request.hostname,
      ssl: { method: 'http', type: 'dv' },
    });
    if (!call.ok) {
      if (call.kind === 'unavailable') return { outcome: 'unavailable', reason: call.reason };
      const duplicate = call.errors.some((e) => e.code === DUPLICATE_HOSTNAME);
      return { outcome: 'refused', problem: { cause: duplicate ? 'already_registered' : 'edge_refused', detail: describe(call.errors) } };
    }
    const ch = customHostname.safeParse(call.result);
    if (!ch.success) return { outcome: 'unavailable', reason: 'unexpected custom hostname shape' };
    return { outcome: 'registered', edgeHostnameId: ch.data.id, observation: await this.precise(observe(ch.data)) };
  }

  async status(ref: EdgeHostnameRef): Promise<EdgeObservation> {
    const call = await this.call('GET', `/custom_hostnames/${encodeURIComponent(ref.edgeHostnameId)}`, this.options.hostnameToken);
    if (!call.ok) {
      if (call.kind === 'unavailable') return { state: 'unknown', reason: call.reason };
      if (call.status === 404) return { state: 'failed', problem: { cause: 'edge_refused', detail: `hostname deleted at the edge (${describe(call.errors)})` } };
      // 401/403: our token, not the tenant's hostname — never the tenant's failure.
      return { state: 'unknown', reason: `HTTP ${call.status} (${describe(call.errors)})` };
    }
    const ch = customHostname.safeParse(call.result);
    return ch.success ? this.precise(observe(ch.data)) : { state: 'unknown', reason: 'unexpected custom hostname shape' };
  }

  async remove(edgeHostnameId: string): Promise<void> {
    const call = await this.call('DELETE', `/custom_hostnames/${encodeURIComponent(edgeHostnameId)}`, this.options.hostnameToken);
    if (call.ok || (call.kind === 'refused' && call.status === 404)) return;
    throw new Error(`Cloudflare refused to delete custom hostname ${edgeHostnameId}: ${call.kind === 'refused' ? describe(call.errors) : call.reason}`);
  }

  async purge(request: EdgePurge): Promise<void> {
    const kinds = [
      ['files', request.urls ?? []],
      ['prefixes', request.prefixes ?? []],
      ['hosts', request.hosts ?? []],
    ] as const;
    for (const [key, values] of kinds) {
      for (let i = 0; i < values.length; i += PURGE_BATCH) {
        const call = await this.call('POST', '/purge_cache', this.options.purgeToken, { [key]: values.slice(i, i + PURGE_BATCH) });
        if (!call.ok) throw new Error(`Cloudflare cache purge failed: ${call.kind === 'refused' ? describe(call.errors) : call.reason}`);
      }
    }
  }
}
