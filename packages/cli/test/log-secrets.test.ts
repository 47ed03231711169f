import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '@panya/core';
import { startFakeCloudflare } from '@panya/edge/testing';
import { startFakeStripe } from '@panya/payment-stripe/testing';
import { openSqliteStore } from '@panya/store-sqlite';

/**
 * `panya serve` (the built CLI) at debug level, configured with every kind of secret it holds, walked
 * through requests that carry each kind — right and wrong API keys, passwords, session cookies, the
 * cron secret, a forged webhook signature, a call to Cloudflare with its token, Stripe configured —
 * and then its whole output is searched for each secret value.
 */
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');
const dir = mkdtempSync(join(tmpdir(), 'panya-log-secrets-'));
const db = join(dir, 'panya.db');

const ZONE = '0123456789abcdef0123456789abcdef';
const SECRETS = {
  cron: 'cron-secret-log-scan-0123456789',
  session: 'session-secret-log-scan-0123456789abcdef',
  stripeKey: 'sk_test_logscan_0123456789',
  stripeWebhook: 'whsec_logscan_0123456789',
  hostnameToken: 'cf-hostname-token-logscan-0123456789',
  purgeToken: 'cf-purge-token-logscan-0123456789',
  password: 'correct horse battery staple 42',
  wrongPassword: 'wrong horse battery staple 42',
};

let child: ChildProcess | undefined;
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((done) => (child!.once('exit', () => done()), child!.kill('SIGKILL')));
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('logs of panya serve', () => {
  it('hold no key, password, session token, cron secret, processor key or edge token at any level', async () => {
    const stripe = await startFakeStripe({ secretKey: SECRETS.stripeKey });
    const cloudflare = await startFakeCloudflare({ zoneId: ZONE, hostnameToken: SECRETS.hostnameToken, purgeToken: SECRETS.purgeToken });
    const engine = createEngine({ store: openSqliteStore({ path: db }) });
    const { tenant } = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'enterprise' }))._unsafeUnwrap();
    const key = (await engine.apiKeys.create(tenant.id, { scopes: ['read', 'write', 'mcp', 'admin'] }))._unsafeUnwrap().key;
    const publishable = (await engine.apiKeys.create(tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
    (await engine.users.createUser({ email: 'owner@acme.test', password: SECRETS.password, tenantSlug: 'acme', role: 'owner' }))._unsafeUnwrap();
    await engine.close();

    child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--workers', '2', '--db', db], {
      env: {
        ...process.env,
        PANYA_LOG_LEVEL: 'debug',
        PANYA_EMBEDDER: 'hash',
        PANYA_CRON_SECRET: SECRETS.cron,
        PANYA_SESSION_SECRET: SECRETS.session,
        PANYA_STRIPE_SECRET_KEY: SECRETS.stripeKey,
        PANYA_STRIPE_API_URL: stripe.url,
        PANYA_STRIPE_WEBHOOK_SECRET: SECRETS.stripeWebhook,
        PANYA_EDGE_PROVIDER: 'cloudflare',
        PANYA_EDGE_TARGET: 'edge.panya.example',
        PANYA_BASE_URL: 'http://api.panya.example',
        PANYA_CLOUDFLARE_API_URL: cloudflare.apiUrl,
        PANYA_CLOUDFLARE_ZONE_ID: ZONE,
        PANYA_CLOUDFLARE_HOSTNAME_TOKEN: SECRETS.hostnameToken,
        PANYA_CLOUDFLARE_PURGE_TOKEN: SECRETS.purgeToken,
      },
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`serve did not start:\n${output}`)), 30_000);
      const onData = () => {
        const listening = /listening on (\S+?)["\s]/.exec(output)?.[1];
        if (listening) (clearTimeout(timer), ok(listening));
      };
      child!.stdout!.on('data', onData);
      child!.stderr!.on('data', onData);
      child!.once('exit', (code) => (clearTimeout(timer), fail(new Error(`serve exited with ${code}:\n${output}`))));
    });

    const call = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, init);
    const json = (auth: string, body: unknown, extra: Record<string, string> = {}): RequestInit => ({
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json', ...extra },
      body: JSON.stringify(body),
    });
    const bearer = `Bearer ${key}`;
    const bogus = `${key.slice(0, -4)}zzzz`;

    expect((await call('/api/docs?wait=true', json(bearer, { title: 'Refunds', contentMd: 'Refunds take 7 days.' }, { 'Idempotency-Key': 'log-scan-1' }))).status).toBe(201);
    expect((await call('/api/search', json(bearer, { query: 'refunds' }))).status).toBe(200);
    expect((await call('/api/search', json(`Bearer ${publishable}`, { query: 'refunds' }, { Origin: 'https://unknown.example' }))).status).toBe(403);
    expect((await call('/api/search', json(`Bearer ${bogus}`, { query: 'refunds' }))).status).toBe(401);
    expect((await call('/api/search', json(bearer, { query: 42 }))).status).toBe(400);
    expect((await call('/api/mcp', json(`Bearer ${bogus}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Accept: 'application/json, text/event-stream' }))).status).toBe(401);

    const login = (password: string) => call('/api/auth/login', json('', { email: 'owner@acme.test', password }, { 'X-Requested-With': 'fetch' }));
    expect((await login(SECRETS.wrongPassword)).status).toBe(401);
    const signedIn = await login(SECRETS.password);
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
    expect((await call('/c/acme/api/docs', { headers: { Cookie: cookie } })).status).toBe(200);

    expect((await call('/api/cron/sla-breach', { headers: { Authorization: `Bearer ${SECRETS.cron}` } })).status).toBe(200);
    expect((await call('/api/cron/sla-breach', { headers: { Authorization: `Bearer ${SECRETS.cron}-wrong` } })).status).toBe(403);
    // A forged webhook: the signature is computed with another secret.
    const forged = await call('/api/billing/webhook', { method: 'POST', headers: { 'Stripe-Signature': `t=${Math.floor(Date.now() / 1000)},v1=${'ab'.repeat(32)}` }, body: '{"id":"evt_forged"}' });
    expect(forged.status).toBe(400);
    // Calls out with the processor's key and the edge's token.
    expect((await call('/api/tenant/custom-hostnames', json(bearer, { hostname: 'help.acme-logscan.com' }))).status).toBe(201);
    expect(cloudflare.requests.some((r) => r.token === SECRETS.hostnameToken)).toBe(true);
    expect((await call('/api/billing', json(bearer, { plan: 'team', interval: 'month' }))).status).toBeLessThan(500);

    await new Promise<void>((done) => (child!.once('exit', () => done()), child!.kill('SIGTERM')));
    await Promise.all([stripe.close(), cloudflare.close()]);

    // The scan means something only if the requests were logged: one access-log line each.
    expect(output.match(/"msg":"request"/g)?.length).toBeGreaterThanOrEqual(14);
    const values = [key, key.slice(9), bogus, publishable, decodeURIComponent(cookie.split('=')[1]!), ...Object.values(SECRETS)];
    for (const secret of values) expect(output, `a secret of ${secret.length} characters appears in the logs`).not.toContain(secret);
  }, 90_000);
});
