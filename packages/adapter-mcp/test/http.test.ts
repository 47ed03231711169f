import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '@panya/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { NO_OAUTH, mcpHttpHandler } from '../src/index.js';
import { ARTICLES, callTool, connect, makeEngine, makeKey, makeTenant, seed, startApp } from './helpers.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

function post(url: string, headers: Record<string, string>, body: unknown = INITIALIZE) {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
}

/** A raw request with a chosen Host header (fetch does not let a caller set it). */
function postWithHost(url: string, host: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { Host: host, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(INITIALIZE));
  });
}

describe('MCP endpoint: authentication and HTTP behaviour', () => {
  let engine: Engine;
  let app: Awaited<ReturnType<typeof startApp>>;
  let acme: Awaited<ReturnType<typeof makeTenant>>;
  let endpoint: string;

  beforeAll(async () => {
    engine = makeEngine();
    acme = await makeTenant(engine, 'acme');
    await seed(engine, acme.ctx, ARTICLES);
    app = await startApp(engine);
    endpoint = `${app.url}/api/mcp`;
  });

  afterAll(async () => {
    await app.close();
    await engine.close();
  });

  it('answers 401 with a Bearer challenge and a problem document when no key is sent', async () => {
    const res = await post(endpoint, {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({ type: 'urn:panya:problem:unauthorized', status: 401, code: 'unauthorized', instance: '/api/mcp' });
    await expect(connect(endpoint)).rejects.toThrow();
  });

  it('answers 401 for an unknown or revoked key', async () => {
    expect((await post(endpoint, { Authorization: 'Bearer svc_live_00000000000000000000000000000000' })).status).toBe(401);
    const revoked = await makeKey(engine, acme.tenant.id, ['mcp']);
    (await engine.apiKeys.revoke(acme.tenant.id, revoked.keyId))._unsafeUnwrap();
    expect((await post(endpoint, { Authorization: `Bearer ${revoked.key}` })).status).toBe(401);
  });

  it('says in the challenge and the problem that a sent key was refused, and where the resource metadata is', async () => {
    const res = await post(endpoint, { Authorization: 'Bearer svc_live_00000000000000000000000000000000' });
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain('error_description="The API key is unknown or has been revoked."');
    expect(challenge).toContain(`resource_metadata="${app.url}/.well-known/oauth-protected-resource/api/mcp"`);
    expect(((await res.json()) as { detail: string }).detail).toBe("The API key is unknown or has been revoked.");
    // No key: a plain challenge (RFC 6750 §3.1: no error code when no credentials were sent).
    const none = await post(endpoint, {});
    expect(none.headers.get('www-authenticate')).not.toContain('error=');
    expect(((await none.json()) as { detail: string }).detail).toContain('Authorization: Bearer');
  });

  it('serves protected-resource metadata that offers no authorization server, and 404s the OAuth addresses with a word about keys', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource/c/acme/api/mcp']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status).toBe(200);
      const meta = await res.json();
      expect(meta).toMatchObject({ resource: `${app.url}${path.replace('/.well-known/oauth-protected-resource', '')}`, authorization_servers: [], bearer_methods_supported: ['header'] });
    }
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/register']) {
      const res = await fetch(`${app.url}${path}`, { method: path === '/register' ? 'POST' : 'GET' });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found', error_description: NO_OAUTH });
    }
  });

  it('lets an OAuth-capable MCP client (the SDK behind MCP hosts) report a refused key as a key problem', async () => {
    const stored: Record<string, unknown> = {};
    const provider: OAuthClientProvider = {
      redirectUrl: 'http://127.0.0.1:1/callback',
      clientMetadata: { redirect_uris: ['http://127.0.0.1:1/callback'], client_name: 'host' },
      clientInformation: () => stored.client as never,
      saveClientInformation: (info) => void (stored.client = info),
      tokens: () => undefined,
      saveTokens: () => {},
      redirectToAuthorization: () => {},
      saveCodeVerifier: () => {},
      codeVerifier: () => 'verifier',
    };
    const client = new Client({ name: 'host', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider, requestInit: { headers: { Authorization: 'Bearer svc_live_00000000000000000000000000000000' } } });
    await expect(client.connect(transport)).rejects.toThrow(/API key/);
  });

  it('answers a refused key with 401 whatever the method (a host falling back to a GET stream)', async () => {
    const res = await fetch(endpoint, { headers: { Authorization: 'Bearer svc_live_00000000000000000000000000000000', Accept: 'text/event-stream' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('unauthorized');
  });

  it('answers 403 naming the mcp scope for a key without it', async () => {
    const { key } = await makeKey(engine, acme.tenant.id, ['read', 'write', 'admin']);
    const res = await post(endpoint, { Authorization: `Bearer ${key}` });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'forbidden', requiredScope: 'mcp' });
    await expect(connect(endpoint, key)).rejects.toThrow();
  });

  it('lets a key with only the mcp scope use the read-only tools', async () => {
    const { key } = await makeKey(engine, acme.tenant.id, ['mcp']);
    const client = await connect(endpoint, key);
    const found = await callTool(client, 'svc_search', { query: 'shipping' });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect((await callTool(client, 'svc_list_docs', {})).isError).toBeFalsy();
    await client.close();
  });

  it('answers GET and DELETE with 405 (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(endpoint, { method, headers: { Authorization: `Bearer ${acme.key}`, Accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
  });

  it('answers initialize with JSON and no session id', async () => {
    const res = await post(endpoint, { Authorization: `Bearer ${acme.key}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as { result: { serverInfo: { name: string }; capabilities: Record<string, unknown>; instructions: string } };
    expect(body.result.serverInfo.name).toBe('panya');
    expect(Object.keys(body.result.capabilities)).toEqual(expect.arrayContaining(['tools', 'prompts']));
    expect(body.result.instructions).toContain('svc_search');
  });

  it("does not reveal another tenant's path: /c/{other}/api/mcp is 404", async () => {
    await makeTenant(engine, 'globex');
    const res = await post(`${app.url}/c/globex/api/mcp`, { Authorization: `Bearer ${acme.key}` });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('not_found');
  });

  it('refuses a foreign Host when allowedHosts is configured (DNS-rebinding protection)', async () => {
    const guarded = await startApp(engine, { mcp: { allowedHosts: ['127.0.0.1', 'localhost'] } });
    try {
      const url = `${guarded.url}/api/mcp`;
      const evil = await postWithHost(url, 'evil.example:80', acme.key);
      expect(evil.status).toBe(403);
      expect(JSON.parse(evil.body)).toMatchObject({ error: { message: 'Invalid Host: evil.example' } });
      // The port does not matter, only the hostname.
      expect((await postWithHost(url, 'localhost:1234', acme.key)).status).toBe(200);
      const fromPage = await post(url, { Authorization: `Bearer ${acme.key}`, Origin: 'http://evil.example' });
      expect(fromPage.status).toBe(403); // no allowedOrigins configured: only the server's own origin
      expect((await post(url, { Authorization: `Bearer ${acme.key}`, Origin: 'null' })).status).toBe(403);
      expect((await post(url, { Authorization: `Bearer ${acme.key}`, Origin: guarded.url })).status).toBe(200);
      expect((await post(url, { Authorization: `Bearer ${acme.key}` })).status).toBe(200); // MCP hosts send no Origin
    } finally {
      await guarded.close();
    }
    const strict = await startApp(engine, { mcp: { allowedOrigins: ['https://app.example'] } });
    try {
      const url = `${strict.url}/api/mcp`;
      expect((await post(url, { Authorization: `Bearer ${acme.key}`, Origin: 'http://evil.example' })).status).toBe(403);
      expect((await post(url, { Authorization: `Bearer ${acme.key}`, Origin: 'https://app.example' })).status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('works on a bare Node server too (no Express: the body is read from the stream)', async () => {
    const handler = mcpHttpHandler(engine);
    const bare = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const client = await connect(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/mcp`, acme.key);
      expect((await client.listTools()).tools).toHaveLength(4);
      expect((await callTool(client, 'svc_list_docs', { limit: 1 })).isError).toBeFalsy();
      await client.close();
    } finally {
      bare.closeAllConnections();
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('leaves the REST API untouched next to it', async () => {
    const res = await fetch(`${app.url}/api/docs`, { headers: { Authorization: `Bearer ${acme.key}` } });
    expect(res.status).toBe(200);
  });
});
