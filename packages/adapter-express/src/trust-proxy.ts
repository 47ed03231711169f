import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/** Which proxies in front of the server are believed about the client's address (`X-Forwarded-For`). */
export type TrustProxy = number | string[];

/** Names proxy-addr knows for address ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `PANYA_TRUST_PROXY`: a number of proxy hops in front of the server (`1` for one load balancer),
 * or a comma-separated list of the proxies' addresses and CIDR ranges (`10.0.0.0/8, 127.0.0.1`, or
 * `loopback`, `linklocal`, `uniquelocal`) — Express's `trust proxy`. Trusting every sender (`true`)
 * is not offered: it lets any client name its own address. Throws a message naming the setting.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) throw new Error(`PANYA_TRUST_PROXY: ${hops} hops is more than any deployment has; give the number of proxies in front of the server.`);
    return hops;
  }
  const entries = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (entries.length === 0) throw new Error('PANYA_TRUST_PROXY: give the number of proxy hops (e.g. 1) or the proxies\' addresses or CIDR ranges (e.g. 10.0.0.0/8).');
  for (const entry of entries) {
    if (RANGE_NAMES.has(entry)) continue;
    try {
      proxyAddr.compile(entry);
    } catch {
      throw new Error(`PANYA_TRUST_PROXY: "${entry}" is neither a number of hops, an IP address, a CIDR range nor one of loopback, linklocal, uniquelocal.`);
    }
  }
  return entries;
}

/** The client's address as Express's `req.ip` gives it under the same setting, for requests answered outside Express. */
export function clientAddress(trust: TrustProxy | boolean | string | undefined): (req: IncomingMessage) => string | undefined {
  if (trust === undefined || trust === false || trust === 0) return (req) => req.socket.remoteAddress;
  const trusts = trust === true ? () => true : typeof trust === 'number' ? (_addr: string, hop: number) => hop < trust : proxyAddr.compile(typeof trust === 'string' ? trust.split(',').map((s) => s.trim()) : trust);
  return (req) => proxyAddr(req, trusts);
}
