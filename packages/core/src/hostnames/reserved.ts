/**
 * Names no tenant may register as a custom hostname: the service's own. A custom hostname is
 * looked up by the Host header of every request, so the API's hostname, the help host or the
 * edge target in a tenant's hands would route everyone's requests to that tenant's help center.
 * Refused: those names, `localhost` (and `*.localhost`), anything inside the operator's own zones
 * (the registrable domains of those names) and the operator's deny list (each entry with its
 * subdomains). IP addresses never parse as hostnames (`parseHostname`).
 */
import { parse } from 'tldts';

export interface ReservedHostnameSources {
  /** The API's own hostnames (`PANYA_BASE_URL`, and the server's `HOST` when it is a name). */
  apiHostnames?: readonly string[];
  /** `PANYA_HELP_HOST`'s hostname. */
  helpHostname?: string | null;
  /** `PANYA_EDGE_TARGET`. */
  edgeTarget?: string | null;
  /** `PANYA_RESERVED_HOSTNAMES`: further names, each refused with its subdomains. */
  deny?: readonly string[];
}

export interface ReservedHostnames {
  /** Why `hostname` (normalised: lower case, punycode, no trailing dot) is refused, or null. */
  reason(hostname: string): string | null;
  /** The API's own hostnames (never a custom hostname, never looked up as one). */
  isApiHostname(hostname: string): boolean;
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** The registrable domain a name lives in, or null for a name without one (localhost, an IP, a public suffix). */
function zoneOf(name: string): string | null {
  const parsed = parse(name, { allowPrivateDomains: true });
  return parsed.isIp ? null : (parsed.domain ?? null);
}

const within = (hostname: string, zone: string) => hostname === zone || hostname.endsWith(`.${zone}`);

export function reservedHostnames(sources: ReservedHostnameSources): ReservedHostnames {
  const api = new Set((sources.apiHostnames ?? []).map(bare).filter(Boolean));
  const own = [...api, ...(sources.helpHostname ? [bare(sources.helpHostname)] : []), ...(sources.edgeTarget ? [bare(sources.edgeTarget)] : [])];
  const exact = new Set(own);
  const zones = new Set(own.map(zoneOf).filter((z): z is string => z !== null));
  const deny = (sources.deny ?? []).map(bare).filter(Boolean);
  return {
    reason(hostname) {
      const host = bare(hostname);
      if (host === 'localhost' || host.endsWith('.localhost')) return `"${host}" is a local name, not one the edge can serve.`;
      if (exact.has(host)) return `"${host}" is one of this service's own hostnames.`;
      for (const zone of zones) if (within(host, zone)) return `"${host}" is inside ${zone}, this service's own domain.`;
      for (const entry of deny) if (within(host, entry)) return `"${host}" is reserved by the operator (${entry}).`;
      return null;
    },
    isApiHostname: (hostname) => api.has(bare(hostname)),
  };
}
