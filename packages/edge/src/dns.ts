/**
 * For self-hosters: the "edge" is their own reverse proxy (e.g. Caddy with on-demand TLS asking
 * `GET /api/edge/tls-allowed`). A hostname is verified with real DNS look-ups: its CNAME points to
 * the edge target (or, at an apex with ALIAS / flattening, it resolves to the target's addresses)
 * and the TXT record carries the exact value shown. Nothing is registered anywhere and there is
 * no shared cache to purge.
 */
import { Resolver } from 'node:dns/promises';
import type { EdgeHostnameRef, EdgeObservation, EdgeProvider, EdgeRegistration, EdgeRegistrationRequest, Logger } from '@panya/core';

export interface DnsEdgeOptions {
  /** The CNAME target every tenant points at (`PANYA_EDGE_TARGET`). */
  edgeTarget: string;
  /** Resolvers as `ip` or `ip:port`; the system's by default. */
  servers?: readonly string[];
  timeoutMs?: number;
  logger?: Logger;
}

/** Answers that mean "the record is not there (yet)"; anything else is a resolver problem. */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

const normalise = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

type Lookup<T> = { found: T } | { absent: true } | { error: string };

async function lookup<T>(query: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { found: await query() };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    return ABSENT.has(code) ? { absent: true } : { error: `${code || 'DNS error'}: ${(error as Error).message}` };
  }
}

export class DnsEdge implements EdgeProvider {
  readonly id = 'dns';
  private readonly resolver: Resolver;
  private readonly target: string;

  constructor(private readonly options: DnsEdgeOptions) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 3_000, tries: 2 });
    if (options.servers?.length) this.resolver.setServers([...options.servers]);
    this.target = normalise(options.edgeTarget);
  }

  async register(request: EdgeRegistrationRequest): Promise<EdgeRegistration> {
    const observation = await this.check(request.hostname, request.ownership.name, request.ownership.value);
    return { outcome: 'registered', edgeHostnameId: `dns:${request.hostname}`, observation };
  }

  status(ref: EdgeHostnameRef): Promise<EdgeObservation> {
    return this.check(ref.hostname, ref.ownership.name, ref.ownership.value);
  }

  async remove(): Promise<void> {}

  async purge(): Promise<void> {
    this.options.logger?.debug('edge.purge.skipped', { reason: 'the dns edge has no shared cache' });
  }

  private async pointsToTarget(hostname: string): Promise<Lookup<boolean>> {
    const cname = await lookup(() => this.resolver.resolveCname(hostname));
    if ('error' in cname) return cname;
    if ('found' in cname && cname.found.length > 0) return { found: cname.found.some((c) => normalise(c) === this.target) };
    // No CNAME: an apex with ALIAS / flattening answers with the target's own addresses.
    const [mine, theirs] = await Promise.all([lookup(() => this.resolver.resolve4(hostname)), lookup(() => this.resolver.resolve4(this.target))]);
    if ('error' in mine) return mine;
    if (!('found' in mine) || !('found' in theirs)) return { absent: true };
    const targetAddresses = new Set(theirs.found);
    return { found: mine.found.length > 0 && mine.found.every((a) => targetAddresses.has(a)) };
  }

  private async check(hostname: string, txtName: string, txtValue: string): Promise<EdgeObservation> {
    const [cname, txt] = await Promise.all([this.pointsToTarget(hostname), lookup(() => this.resolver.resolveTxt(txtName))]);
    if ('error' in cname) return { state: 'unknown', reason: cname.error };
    if ('error' in txt) return { state: 'unknown', reason: txt.error };
    if (!('found' in cname) || !cname.found) {
      return {
        state: 'verifying',
        problem: { cause: 'dns_not_propagated', detail: `${hostname} has no CNAME to ${this.target} yet` },
      };
    }
    // A TXT record longer than 255 bytes arrives in chunks: join them before comparing.
    const values = 'found' in txt ? txt.found.map((chunks) => chunks.join('')) : [];
    if (values.length === 0) {
      return { state: 'verifying', problem: { cause: 'dns_not_propagated', detail: `no TXT record at ${txtName} yet` } };
    }
    if (!values.includes(txtValue)) {
      return {
        state: 'failed',
        problem: { cause: 'txt_mismatch', detail: `TXT at ${txtName} is ${values.map((v) => JSON.stringify(v)).join(', ')}` },
      };
    }
    return { state: 'active' };
  }
}
