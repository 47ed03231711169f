/**
 * Single sign-on for the admin app against a real OpenID Connect provider on a local port
 * (`oauth2-mock-server`: discovery, authorize, token endpoint, signed ID tokens, PKCE checked):
 * the whole redirect dance over HTTP, on SQLite through the store port. Sign-in provisions the
 * user with the mapped role and sets the same session cookie as password login; every refusal is
 * a clear problem and writes nothing; password sign-in switched off cannot lock the tenant out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAuth2Server } from 'oauth2-mock-server';
import request from 'supertest';
import { createEngine, MAX_SSO_ATTEMPTS_IN_FLIGHT, type Engine } from '@panya/core';
import { engineInternals } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const PASSWORD = 'correct horse battery';

/** A problem or view body, read loosely. */
const read = (res: Response) => res.json() as Promise<Record<string, any>>;

/** The claims the provider puts in the next ID token (`sub` is the mock's own). */
let claims: Record<string, unknown> = {};

describe('single sign-on (OpenID Connect) for the admin app', { timeout: 30_000 }, () => {
  let provider: OAuth2Server;
  let engine: Engine;
  let server: Server;
  let base: string;
  let tenant: Awaited<ReturnType<typeof makeTenant>>;
  const json = (extra: Record<string, string> = {}) => ({ ...tenant.auth, 'Content-Type': 'application/json', ...extra });

  const config = (overrides: Record<string, unknown> = {}) => ({
    issuer: provider.issuer.url!,
    clientId: 'panya-admin',
    clientSecret: 'provider-client-secret-1234',
    allowedDomains: ['acme.test'],
    roleClaim: 'groups',
    roleMap: { 'panya-admins': 'admin', 'panya-editors': 'editor' },
    defaultRole: 'viewer',
    ...overrides,
  });

  async function putConfig(body: Record<string, unknown>, headers: Record<string, string> = json()) {
    return fetch(`${base}/c/acme/api/tenant/sso`, { method: 'PUT', headers, body: JSON.stringify(body) });
  }

  /** Cookies as a browser keeps them: name → value from Set-Cookie. */
  function cookiesOf(res: Response, jar: Map<string, string> = new Map()): Map<string, string> {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const value = pair!.slice(at + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(pair!.slice(0, at));
      else jar.set(pair!.slice(0, at), value);
    }
    return jar;
  }
  const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

  /** Start → provider → the provider's redirect back (not yet followed): what a browser would do. */
  async function toProvider(slug = 'acme') {
    const start = await fetch(`${base}/api/auth/sso/${slug}/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const jar = cookiesOf(start);
    const authorize = new URL(start.headers.get('location')!);
    const back = await fetch(authorize, { redirect: 'manual' });
    expect(back.status).toBe(302);
    return { jar, authorize, callback: new URL(back.headers.get('location')!) };
  }

  async function signIn(slug = 'acme') {
    const { jar, callback } = await toProvider(slug);
    const res = await fetch(callback, { redirect: 'manual', headers: { Cookie: cookieHeader(jar), Accept: 'application/json' } });
    return { res, jar: cookiesOf(res, jar) };
  }

  async function me(jar: Map<string, string>, slug = 'acme') {
    return fetch(`${base}/c/${slug}/api/me`, { headers: { Cookie: cookieHeader(jar) } });
  }

  const counts = async () => {
    const { store } = engineInternals(engine);
    const user = await store.users.getByEmail('mali@acme.test');
    return { user: user?.id ?? null, memberships: user ? (await store.users.memberships(user.id, tenant.tenant.id)).length : 0, audit: (await store.audit.list(tenant.tenant.id, {})).length };
  };

  beforeAll(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, claims));
    engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
    server = createServer(createPanyaApp(engine, { secureCookies: false }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    tenant = await makeTenant(engine, 'acme');
    await makeTenant(engine, 'globex');
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await engine?.close();
    await provider?.stop();
  });

  beforeEach(() => {
    claims = { email: 'mali@acme.test', email_verified: true, groups: ['staff', 'panya-editors'] };
  });

  it('keeps the configuration through the API: the secret masked, bad settings refused by field, an audit entry per change', async () => {
    expect((await fetch(`${base}/c/acme/api/tenant/sso`, { headers: tenant.auth })).status).toBe(404);
    const missingSecret = await putConfig(config({ clientSecret: undefined }));
    expect(missingSecret.status).toBe(400);
    expect((await read(missingSecret)).errors).toEqual([{ path: 'clientSecret', message: 'required' }]);
    const bad = await read(await putConfig(config({ issuer: 'http://idp.example.com', allowedDomains: ['not a domain'], roleMap: { x: 'owner' } })));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad)).toMatch(/issuer/);
    expect(JSON.stringify(bad)).toMatch(/allowedDomains/);
    expect(JSON.stringify(bad)).toMatch(/roleMap/);
    const nobody = await putConfig(config({ defaultRole: null, roleMap: {} }));
    expect(nobody.status).toBe(400);
    expect(JSON.stringify(await read(nobody))).toMatch(/defaultRole/);
    expect((await fetch(`${base}/c/acme/api/tenant/sso`, { headers: tenant.auth })).status).toBe(404);

    const saved = await putConfig(config({ allowedDomains: ['ACME.test', '@acme.test'] }));
    expect(saved.status).toBe(200);
    const view = await read(saved);
    expect(view).toMatchObject({ clientId: 'panya-admin', clientSecretHint: '…1234', allowedDomains: ['acme.test'], passwordLogin: true, redirectPath: '/api/auth/sso/callback' });
    expect(JSON.stringify(view)).not.toContain('provider-client-secret');
    // Omitting the secret keeps it.
    expect((await read(await putConfig(config({ clientSecret: undefined })))).clientSecretHint).toBe('…1234');
    const entries = (await engineInternals(engine).store.audit.list(tenant.tenant.id, { type: 'sso.config_updated' })) as { after: Record<string, unknown> | null }[];
    expect(entries).toHaveLength(2);
    expect(entries[0]!.after).toMatchObject({ issuer: provider.issuer.url, clientSecretHint: '…1234' });
    expect(JSON.stringify(entries)).not.toContain('provider-client-secret');
    // A workspace-bound admin key, or a key without `admin`, cannot read it.
    const writer = (await engine.apiKeys.create(tenant.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
    expect((await fetch(`${base}/c/acme/api/tenant/sso`, { headers: { Authorization: `Bearer ${writer}` } })).status).toBe(403);
    // The login page's question: the same answer for an unknown tenant as for one without SSO.
    expect(await read(await fetch(`${base}/api/auth/sso/acme`))).toEqual({ sso: true, passwordLogin: true });
    expect(await read(await fetch(`${base}/api/auth/sso/globex`))).toEqual({ sso: false, passwordLogin: true });
    expect(await read(await fetch(`${base}/api/auth/sso/nobody`))).toEqual({ sso: false, passwordLogin: true });
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce, bound to this browser by a cookie', async () => {
    const { jar, authorize } = await toProvider();
    expect(authorize.origin + '/').toBe(new URL(provider.issuer.url!).origin + '/');
    const q = authorize.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('panya-admin');
    expect(q.get('redirect_uri')).toBe(`${base}/api/auth/sso/callback`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(q.get('nonce')!.length).toBeGreaterThanOrEqual(32);
    expect(q.get('scope')).toContain('openid');
    expect(jar.has('panya_sso')).toBe(true);
    // Behind a proxy, the public address (PANYA_BASE_URL) names the redirect URI, not the request's Host.
    const proxied = await request(createPanyaApp(engine, { secureCookies: false, baseUrl: 'https://admin.example.com/' })).get('/api/auth/sso/acme/start').set('Host', 'internal:8080').expect(302);
    expect(new URL(proxied.headers.location!).searchParams.get('redirect_uri')).toBe('https://admin.example.com/api/auth/sso/callback');
    // Unknown tenant, or one without SSO: a 404 problem, no redirect.
    const none = await fetch(`${base}/api/auth/sso/globex/start`, { redirect: 'manual', headers: { Accept: 'application/json' } });
    expect(none.status).toBe(404);
    expect(none.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('signs a new user in: provisioned as a tenant member with the mapped role, the same session cookie as password login, an audit event', async () => {
    const before = await counts();
    expect(before.user).toBeNull();
    const { res, jar } = await signIn();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/?tenant=acme');
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('panya_session='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    const who = await read(await me(jar));
    expect(who).toMatchObject({ kind: 'user', role: 'editor', tenantWide: true });
    const session = await read(await fetch(`${base}/api/auth/session`, { headers: { Cookie: cookieHeader(jar) } }));
    expect(session).toMatchObject({ user: { email: 'mali@acme.test' }, memberships: [{ tenantSlug: 'acme', workspaceSlug: null, role: 'editor' }] });
    // Another tenant is not reachable with it.
    expect((await me(jar, 'globex')).status).toBe(404);
    const after = await counts();
    expect(after.memberships).toBe(1);
    const provisioned = await engineInternals(engine).store.audit.list(tenant.tenant.id, { type: 'member.provisioned' });
    expect(provisioned).toHaveLength(1);
    expect(provisioned[0]).toMatchObject({ actorKind: 'system', subjectId: after.user, after: { email: 'mali@acme.test', role: 'editor', via: 'sso', newUser: true } });
    // The provisioned user has no password anyone knows.
    expect((await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'mali@acme.test', password: PASSWORD }) })).status).toBe(401);

    // A second sign-in: the same user and membership, no new audit event.
    claims.groups = ['panya-admins'];
    const again = await signIn();
    expect(again.res.status).toBe(303);
    expect((await counts()).memberships).toBe(1);
    expect(await engineInternals(engine).store.audit.list(tenant.tenant.id, { type: 'member.provisioned' })).toHaveLength(1);
  });

  it('maps roles from the claim: the most capable match wins, else the default, else refused', async () => {
    const cases: [unknown, string | null, string | null][] = [
      [['panya-editors', 'panya-admins'], 'viewer', 'admin'],
      ['panya-editors', 'viewer', 'editor'],
      [['sales'], 'viewer', 'viewer'],
      [undefined, 'viewer', 'viewer'],
      [['sales'], null, null],
    ];
    for (const [index, [groups, defaultRole, expected]] of cases.entries()) {
      expect((await putConfig(config({ defaultRole }))).status).toBe(200);
      const email = `role${index}@acme.test`;
      claims = { email, email_verified: true, ...(groups === undefined ? {} : { groups }) };
      const { res, jar } = await signIn();
      if (expected === null) {
        expect(res.status).toBe(403);
        expect((await read(res)).detail).toMatch(/No Panya role is mapped/);
        expect(await engineInternals(engine).store.users.getByEmail(email)).toBeNull();
      } else {
        expect(res.status).toBe(303);
        expect((await read(await me(jar))).role).toBe(expected);
      }
    }
    expect((await putConfig(config())).status).toBe(200);
  });

  it('refuses a wrong domain, an unverified e-mail, a missing e-mail: 403 problems, nothing written', async () => {
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ email: 'mali@evil.test', email_verified: true }, /evil\.test may not sign in/],
      [{ email: 'new@acme.test', email_verified: false }, /not verified/],
      [{ email: 'new@acme.test' }, /not verified/],
      [{ email: 'new@acme.test', email_verified: 'true' }, /not verified/],
      [{ email_verified: true }, /no e-mail address/],
      // A look-alike domain is not the domain.
      [{ email: 'x@notacme.test', email_verified: true }, /notacme\.test may not/],
      [{ email: 'x@acme.test.evil.test', email_verified: true }, /may not sign in/],
    ];
    for (const [given, detail] of refusals) {
      claims = given;
      const before = await counts();
      const users = await engineInternals(engine).store.users.getByEmail(String(given.email ?? ''));
      const { res, jar } = await signIn();
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect((await read(res)).detail).toMatch(detail);
      expect(jar.has('panya_session')).toBe(false);
      expect(await counts()).toEqual(before);
      expect(await engineInternals(engine).store.users.getByEmail(String(given.email ?? ''))).toEqual(users);
    }
  });

  it('refuses a replayed, forged, foreign or expired state, and a browser without the attempt cookie', async () => {
    const before = await counts();
    // Replay: the same callback twice; the second finds no attempt.
    const first = await toProvider();
    const ok = await fetch(first.callback, { redirect: 'manual', headers: { Cookie: cookieHeader(first.jar), Accept: 'application/json' } });
    expect(ok.status).toBe(303);
    const replay = await fetch(first.callback, { redirect: 'manual', headers: { Cookie: cookieHeader(first.jar), Accept: 'application/json' } });
    expect(replay.status).toBe(400);
    expect((await read(replay)).detail).toMatch(/unknown or was already used/);

    // The callback opened in another browser (no attempt cookie): a planted link signs no one in.
    const planted = await toProvider();
    const other = await fetch(planted.callback, { redirect: 'manual', headers: { Accept: 'application/json' } });
    expect(other.status).toBe(400);
    expect((await read(other)).detail).toMatch(/did not start in this browser/);
    expect(cookiesOf(other).has('panya_session')).toBe(false);

    // A forged state that matches its own forged cookie: the cookie is signed, so it is not this server's.
    const forged = new URL(planted.callback);
    forged.searchParams.set('state', 'forged-state-value');
    const forgedRes = await fetch(forged, { redirect: 'manual', headers: { Cookie: 'panya_sso=forged-state-value', Accept: 'application/json' } });
    expect(forgedRes.status).toBe(400);

    // Expired: the attempt is older than ten minutes when the browser comes back.
    const late = await toProvider();
    const { deps } = engineInternals(engine);
    const realNow = deps.clock.now.bind(deps.clock);
    (deps.clock as { now: () => Date }).now = () => new Date(realNow().getTime() + 11 * 60_000);
    try {
      const expired = await fetch(late.callback, { redirect: 'manual', headers: { Cookie: cookieHeader(late.jar), Accept: 'application/json' } });
      expect(expired.status).toBe(400);
      expect((await read(expired)).detail).toMatch(/expired/);
    } finally {
      (deps.clock as { now: () => Date }).now = realNow;
    }
    const after = await counts();
    expect(after.memberships).toBe(before.memberships);
  });

  it('refuses an ID token that does not verify (wrong nonce, wrong audience, another issuer) and a provider error, as clear pages for a browser', async () => {
    const refusals: [Record<string, unknown>, number, RegExp][] = [
      [{ email: 'mali@acme.test', email_verified: true, nonce: 'another-nonce' }, 401, /nonce/],
      [{ email: 'mali@acme.test', email_verified: true, aud: 'another-client' }, 401, /aud/],
      [{ email: 'mali@acme.test', email_verified: true, iss: 'https://elsewhere.example' }, 401, /iss/],
    ];
    for (const [given, status, detail] of refusals) {
      claims = given;
      const before = await counts();
      const { res, jar } = await signIn();
      expect(res.status).toBe(status);
      expect((await read(res)).detail).toMatch(detail);
      expect(jar.has('panya_session')).toBe(false);
      expect(await counts()).toEqual(before);
    }
    // The provider refuses (the user cancelled): a page saying so, for a browser.
    const { jar, callback } = await toProvider();
    const denied = new URL(`${base}/api/auth/sso/callback`);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('error_description', 'The user cancelled');
    denied.searchParams.set('state', callback.searchParams.get('state')!);
    const page = await fetch(denied, { redirect: 'manual', headers: { Cookie: cookieHeader(jar), Accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('The identity provider refused the sign-in: The user cancelled.');
    expect(html).toContain('<h1>Single sign-on failed (403)</h1>');
    expect(html).toContain('href="/admin/"');
  });

  it('answers 503 when the provider cannot be reached', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((resolve) => dead.close(resolve));
    expect((await putConfig(config({ issuer: `http://127.0.0.1:${port}` }))).status).toBe(200);
    try {
      const res = await fetch(`${base}/api/auth/sso/acme/start`, { redirect: 'manual', headers: { Accept: 'application/json' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await read(res)).detail).toMatch(/identity provider could not be reached/);
    } finally {
      expect((await putConfig(config())).status).toBe(200);
    }
  });

  it('caps the attempts a tenant has in flight: starting needs no credentials, so the rows anyone can make are bounded', async () => {
    expect((await putConfig(config())).status).toBe(200);
    const { store, deps } = engineInternals(engine);
    const now = deps.clock.now();
    const ids = Array.from({ length: MAX_SSO_ATTEMPTS_IN_FLIGHT }, (_, i) => `flood-${i}`);
    for (const id of ids) await store.sso.saveState({ id, tenantId: tenant.tenant.id, nonce: 'n', codeVerifier: 'v', createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 600_000).toISOString() }, now.toISOString());
    const refused = await fetch(`${base}/api/auth/sso/acme/start`, { redirect: 'manual', headers: { Accept: 'application/json' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await read(refused)).limit).toBe('MAX_SSO_ATTEMPTS_IN_FLIGHT');
    expect(await store.sso.liveStates(tenant.tenant.id, now.toISOString())).toBeGreaterThanOrEqual(MAX_SSO_ATTEMPTS_IN_FLIGHT);
    for (const id of ids) await store.sso.takeState(id);
    expect((await fetch(`${base}/api/auth/sso/acme/start`, { redirect: 'manual' })).status).toBe(302);
  });

  describe('password sign-in switched off', () => {
    beforeAll(async () => {
      (await engine.users.createUser({ email: 'owner@acme.test', password: PASSWORD, tenantSlug: 'acme', role: 'owner' }))._unsafeUnwrap();
      (await engine.users.createUser({ email: 'both@acme.test', password: PASSWORD, tenantSlug: 'acme', role: 'editor' }))._unsafeUnwrap();
      (await engine.users.createUser({ email: 'both@acme.test', password: PASSWORD, tenantSlug: 'globex', role: 'editor' }))._unsafeUnwrap();
    });

    async function passwordLogin(email: string) {
      const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
      return { res, jar: cookiesOf(res) };
    }

    it('cannot be switched off with new or changing provider settings, nor from a password session', async () => {
      const owner = await passwordLogin('owner@acme.test');
      expect(owner.res.status).toBe(200);
      const cookie = { Cookie: cookieHeader(owner.jar), 'X-Requested-With': 'test', 'Content-Type': 'application/json' };
      const fromPassword = await putConfig(config({ passwordLogin: false }), cookie);
      expect(fromPassword.status).toBe(409);
      expect((await read(fromPassword)).detail).toMatch(/Sign in with this tenant's single sign-on first/);
      const changing = await putConfig(config({ passwordLogin: false, clientId: 'another-client' }));
      expect(changing.status).toBe(409);
      expect((await read(changing)).detail).toMatch(/provider settings are new or changing/);
      expect((await engineInternals(engine).store.sso.getConfig(tenant.tenant.id))!.passwordLogin).toBe(true);
    });

    it('is switched off from a session the provider opened; then password sessions are refused with 403, SSO ones admitted', async () => {
      // The owner signs in through the provider (an existing member keeps the owner role) and switches it off.
      const owner = await passwordLogin('owner@acme.test');
      claims = { email: 'owner@acme.test', email_verified: true, groups: [] };
      const sso = await signIn();
      expect(sso.res.status).toBe(303);
      expect((await read(await me(sso.jar))).role).toBe('owner');
      const off = await putConfig(config({ passwordLogin: false }), { Cookie: cookieHeader(sso.jar), 'X-Requested-With': 'test', 'Content-Type': 'application/json' });
      expect(off.status).toBe(200);
      expect((await read(off)).passwordLogin).toBe(false);
      expect((await engineInternals(engine).store.audit.list(tenant.tenant.id, { type: 'sso.config_updated' })).at(-1)).toMatchObject({ before: { passwordLogin: true }, after: { passwordLogin: false } });
      expect(await read(await fetch(`${base}/api/auth/sso/acme`))).toEqual({ sso: true, passwordLogin: false });

      // Password sign-in of a member of acme only: a 403 problem naming single sign-on.
      const refused = await passwordLogin('owner@acme.test');
      expect(refused.res.status).toBe(403);
      expect(refused.res.headers.get('content-type')).toMatch(/problem\+json/);
      expect((await read(refused.res)).detail).toMatch(/Password sign-in is switched off for acme: sign in with single sign-on/);
      expect(refused.jar.has('panya_session')).toBe(false);
      // A wrong password still says only that, not that the tenant uses SSO.
      const wrong = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'owner@acme.test', password: 'not the password' }) });
      expect(wrong.status).toBe(401);

      // A session opened by password before the switch no longer opens the tenant.
      const stale = await me(owner.jar);
      expect(stale.status).toBe(403);
      expect((await read(stale)).detail).toMatch(/switched off for acme/);
      // A member of two tenants signs in by password to the other one only.
      const both = await passwordLogin('both@acme.test');
      expect(both.res.status).toBe(200);
      expect((await me(both.jar, 'globex')).status).toBe(200);
      expect((await me(both.jar, 'acme')).status).toBe(403);
      const session = await read(await fetch(`${base}/api/auth/session`, { headers: { Cookie: cookieHeader(both.jar) } }));
      expect(session.memberships.map((m: { tenantSlug: string }) => m.tenantSlug)).toEqual(['globex']);
      // The provider's session keeps working; an admin API key too.
      expect((await me(sso.jar)).status).toBe(200);
      expect((await fetch(`${base}/c/acme/api/tenant/sso`, { headers: tenant.auth })).status).toBe(200);

      // Removing the provider turns password sign-in back on (no settings, no switch).
      expect((await fetch(`${base}/c/acme/api/tenant/sso`, { method: 'DELETE', headers: tenant.auth })).status).toBe(200);
      expect((await passwordLogin('owner@acme.test')).res.status).toBe(200);
      expect((await engineInternals(engine).store.audit.list(tenant.tenant.id, { type: 'sso.config_deleted' }))).toHaveLength(1);
    });
  });
});
