import { describe, expect, it, vi } from 'vitest';
import { CLOUDFLARE_API_URL, CloudflareEdge, DnsEdge, EdgeConfigError, NoEdge, createEdgeProvider, parseEdgeConfig } from '@panya/edge';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const cloudflare = {
  PANYA_EDGE_PROVIDER: 'cloudflare',
  PANYA_EDGE_TARGET: 'edge.help.example.net',
  PANYA_CLOUDFLARE_ZONE_ID: ZONE,
  PANYA_CLOUDFLARE_HOSTNAME_TOKEN: 'host-token',
  PANYA_CLOUDFLARE_PURGE_TOKEN: 'purge-token',
};

function configError(env: Record<string, string>): EdgeConfigError {
  try {
    parseEdgeConfig(env);
  } catch (error) {
    if (error instanceof EdgeConfigError) return error;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('edge configuration', () => {
  it('defaults to none', () => {
    expect(parseEdgeConfig({})).toEqual({ provider: 'none' });
    expect(createEdgeProvider(parseEdgeConfig({}))).toBeInstanceOf(NoEdge);
  });

  it('cloudflare: defaults the API URL to Cloudflare\'s', () => {
    expect(parseEdgeConfig(cloudflare)).toEqual({
      provider: 'cloudflare',
      edgeTarget: 'edge.help.example.net',
      apiUrl: CLOUDFLARE_API_URL,
      zoneId: ZONE,
      hostnameToken: 'host-token',
      purgeToken: 'purge-token',
      warnings: [],
    });
    expect(createEdgeProvider(parseEdgeConfig(cloudflare))).toBeInstanceOf(CloudflareEdge);
  });

  it('the hostname token falls back to the purge token with one warning', () => {
    const { PANYA_CLOUDFLARE_HOSTNAME_TOKEN: _, ...env } = cloudflare;
    const config = parseEdgeConfig(env);
    expect(config).toMatchObject({ hostnameToken: 'purge-token', purgeToken: 'purge-token' });
    const warn = vi.fn();
    createEdgeProvider(config, { debug() {}, info() {}, warn, error() {} });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls[0])).toMatch(/PANYA_CLOUDFLARE_HOSTNAME_TOKEN/);
  });

  it.each([
    [{ PANYA_EDGE_PROVIDER: 'fastly' }, 'PANYA_EDGE_PROVIDER', /none, cloudflare, dns/],
    [{ ...cloudflare, PANYA_EDGE_TARGET: '' }, 'PANYA_EDGE_TARGET', /required/],
    [{ ...cloudflare, PANYA_EDGE_TARGET: 'https://edge.example.net' }, 'PANYA_EDGE_TARGET', /not a hostname/],
    [{ ...cloudflare, PANYA_CLOUDFLARE_ZONE_ID: '' }, 'PANYA_CLOUDFLARE_ZONE_ID', /required/],
    [{ ...cloudflare, PANYA_CLOUDFLARE_ZONE_ID: 'acme.com' }, 'PANYA_CLOUDFLARE_ZONE_ID', /32-character/],
    [{ ...cloudflare, PANYA_CLOUDFLARE_PURGE_TOKEN: '' }, 'PANYA_CLOUDFLARE_PURGE_TOKEN', /required/],
    [{ ...cloudflare, PANYA_CLOUDFLARE_API_URL: 'not a url' }, 'PANYA_CLOUDFLARE_API_URL', /http\(s\) URL/],
    [{ PANYA_EDGE_PROVIDER: 'dns' }, 'PANYA_EDGE_TARGET', /required/],
    [{ PANYA_EDGE_PROVIDER: 'dns', PANYA_EDGE_TARGET: 'edge.example.net', PANYA_EDGE_DNS_SERVERS: 'dns.google' }, 'PANYA_EDGE_DNS_SERVERS', /resolver address/],
  ])('%j → error naming %s', (env, variable, message) => {
    const error = configError(env as Record<string, string>);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}: `)).toBe(true);
    expect(error.message).toMatch(message);
  });

  it('dns: target and optional resolvers', () => {
    const config = parseEdgeConfig({ PANYA_EDGE_PROVIDER: 'DNS', PANYA_EDGE_TARGET: 'Edge.Example.NET.', PANYA_EDGE_DNS_SERVERS: '127.0.0.1:5353, 1.1.1.1' });
    expect(config).toEqual({ provider: 'dns', edgeTarget: 'edge.example.net', servers: ['127.0.0.1:5353', '1.1.1.1'] });
    expect(createEdgeProvider(config)).toBeInstanceOf(DnsEdge);
  });
});
