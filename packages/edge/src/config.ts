/**
 * Edge provider configuration from the environment. A mistake stops the start with a message
 * naming the variable; the hostname token may fall back to the purge token (with one warning).
 */
import { hasMarker, type EdgeProvider, type Logger } from '@panya/core';
import { CLOUDFLARE_API_URL, CloudflareEdge } from './cloudflare.js';
import { DnsEdge } from './dns.js';
import { NoEdge } from './none.js';

export const EDGE_PROVIDERS = ['none', 'cloudflare', 'dns'] as const;
export type EdgeProviderName = (typeof EDGE_PROVIDERS)[number];

export type EdgeConfig =
  | { provider: 'none' }
  | {
      provider: 'cloudflare';
      edgeTarget: string;
      apiUrl: string;
      zoneId: string;
      hostnameToken: string;
      purgeToken: string;
      warnings: string[];
    }
  | { provider: 'dns'; edgeTarget: string; servers: string[] };

const EDGE_CONFIG = Symbol.for('panya.error.edge-config');

export class EdgeConfigError extends Error {
  readonly [EDGE_CONFIG] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMarker(value, EDGE_CONFIG);
  }
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = 'EdgeConfigError';
  }
}

export function isEdgeConfigError(error: unknown): error is EdgeConfigError {
  return hasMarker(error, EDGE_CONFIG);
}

type Env = Record<string, string | undefined>;

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function required(env: Env, name: string, why: string): string {
  const value = read(env, name);
  if (!value) throw new EdgeConfigError(name, `is required ${why}.`);
  return value;
}

function edgeTarget(env: Env, provider: string): string {
  const target = required(env, 'PANYA_EDGE_TARGET', `with PANYA_EDGE_PROVIDER=${provider} (the CNAME target tenants point their hostnames at, e.g. edge.help.example.com)`);
  const bare = target.replace(/\.$/, '');
  if (!HOSTNAME.test(bare)) throw new EdgeConfigError('PANYA_EDGE_TARGET', `"${target}" is not a hostname (give e.g. edge.help.example.com, without scheme or port).`);
  return bare.toLowerCase();
}

export function parseEdgeConfig(env: Env): EdgeConfig {
  const provider = (read(env, 'PANYA_EDGE_PROVIDER') ?? 'none').toLowerCase();
  if (!(EDGE_PROVIDERS as readonly string[]).includes(provider)) {
    throw new EdgeConfigError('PANYA_EDGE_PROVIDER', `"${provider}" is not one of ${EDGE_PROVIDERS.join(', ')}.`);
  }
  if (provider === 'none') return { provider: 'none' };

  if (provider === 'dns') {
    const servers = (read(env, 'PANYA_EDGE_DNS_SERVERS') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    for (const server of servers) {
      if (!/^[0-9a-f.:[\]]+$/i.test(server)) {
        throw new EdgeConfigError('PANYA_EDGE_DNS_SERVERS', `"${server}" is not a resolver address (give IPs, e.g. 1.1.1.1,8.8.8.8 or 127.0.0.1:5353).`);
      }
    }
    return { provider: 'dns', edgeTarget: edgeTarget(env, provider), servers };
  }

  const apiUrl = read(env, 'PANYA_CLOUDFLARE_API_URL') ?? CLOUDFLARE_API_URL;
  try {
    const url = new URL(apiUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
  } catch {
    throw new EdgeConfigError('PANYA_CLOUDFLARE_API_URL', `"${apiUrl}" is not an http(s) URL.`);
  }
  const zoneId = required(env, 'PANYA_CLOUDFLARE_ZONE_ID', 'with PANYA_EDGE_PROVIDER=cloudflare (the help zone on Cloudflare for SaaS)');
  if (!/^[0-9a-f]{32}$/i.test(zoneId)) throw new EdgeConfigError('PANYA_CLOUDFLARE_ZONE_ID', 'must be the 32-character hex zone id shown on the zone\'s overview page.');
  const purgeToken = required(env, 'PANYA_CLOUDFLARE_PURGE_TOKEN', 'with PANYA_EDGE_PROVIDER=cloudflare (an API token with Cache Purge on the help zone)');
  const warnings: string[] = [];
  let hostnameToken = read(env, 'PANYA_CLOUDFLARE_HOSTNAME_TOKEN');
  if (!hostnameToken) {
    hostnameToken = purgeToken;
    warnings.push(
      'PANYA_CLOUDFLARE_HOSTNAME_TOKEN is not set: custom-hostname calls use PANYA_CLOUDFLARE_PURGE_TOKEN. ' +
        'Create a separate token with SSL and Certificates edit on the help zone.',
    );
  }
  return { provider: 'cloudflare', edgeTarget: edgeTarget(env, provider), apiUrl, zoneId, hostnameToken, purgeToken, warnings };
}

/** Builds the configured provider; warnings are logged once, here. */
export function createEdgeProvider(config: EdgeConfig, logger?: Logger): EdgeProvider {
  switch (config.provider) {
    case 'none':
      return new NoEdge();
    case 'dns':
      return new DnsEdge({ edgeTarget: config.edgeTarget, servers: config.servers, ...(logger ? { logger } : {}) });
    case 'cloudflare':
      for (const warning of config.warnings) logger?.warn('edge.config', { warning });
      return new CloudflareEdge(config);
  }
}
