/**
 * Single sign-on in a real browser (Debian's Chromium through playwright-core): the admin app's
 * login page for a tenant offers "Sign in with SSO", the browser goes through a local OpenID
 * Connect provider (`oauth2-mock-server`, started here) and lands in the admin app as the role
 * the provider's `groups` claim maps to; the admin edits the settings on the Single sign-on
 * screen and switches password sign-in off, after which the tenant's login page offers SSO only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { OAuth2Server } from 'oauth2-mock-server';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { adminAssetsBuilt } from '@panya/admin';
import { browserAvailable, launchChromium, seriousA11yViolations } from '../../../testing/browser.js';
import { makeTenant } from './helpers.js';

const runs = browserAvailable('single sign-on') && (adminAssetsBuilt() || (console.warn('single sign-on: browser tests skipped, the admin app is not built (pnpm build).'), false));

describe.skipIf(!runs)('single sign-on in the browser', { timeout: 45_000 }, () => {
  let provider: OAuth2Server;
  let engine: Engine;
  let server: Server;
  let browser: Browser;
  let page: Page;
  let base: string;
  let tenant: Awaited<ReturnType<typeof makeTenant>>;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    // The provider's user: a verified address at the tenant's domain, in the group mapped to admin.
    provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, { email: 'nok@acme.test', email_verified: true, groups: ['everyone', 'panya-admins'] }));
    engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), ingest: { pollMs: 50 } });
    await engine.start();
    server = createServer(createPanyaApp(engine, { secureCookies: false }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    tenant = await makeTenant(engine, 'acme');
    const configured = await fetch(`${base}/c/acme/api/tenant/sso`, {
      method: 'PUT',
      headers: { ...tenant.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ issuer: provider.issuer.url, clientId: 'panya-admin', clientSecret: 'provider-client-secret-9876', allowedDomains: ['acme.test'], roleClaim: 'groups', roleMap: { 'panya-admins': 'admin' }, defaultRole: 'viewer' }),
    });
    expect(configured.status).toBe(200);

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(8_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspErrors.push(msg.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await engine?.close();
    await provider?.stop();
  });

  async function accessible() {
    expect((await seriousA11yViolations(page)).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    expect(cspErrors).toEqual([]);
  }

  it('signs in through the provider and lands in the admin app as the mapped role', async () => {
    await page.goto(`${base}/admin/?tenant=acme`);
    const sso = page.getByRole('link', { name: 'Sign in with SSO' });
    await sso.waitFor();
    // Password sign-in is still on for the tenant: both are offered.
    await page.getByLabel('Password').waitFor();
    await accessible();
    await sso.click();
    // Provider → callback → the admin app, signed in.
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/');
    expect(await page.locator('[data-role]').textContent()).toBe('admin');
    expect(await page.locator('header').textContent()).toContain('nok@acme.test');
    const cookies = await page.context().cookies(base);
    expect(cookies.find((c) => c.name === 'panya_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(cookies.find((c) => c.name === 'panya_sso')).toBeUndefined();
  });

  it('shows the settings on the Single sign-on screen, the secret masked, and switches password sign-in off', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Single sign-on', exact: true }).click();
    await page.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();
    expect(await page.getByLabel('Issuer URL').inputValue()).toBe(provider.issuer.url);
    expect(await page.getByLabel('Client secret').inputValue()).toBe('');
    expect(await page.getByLabel('Client secret').getAttribute('placeholder')).toContain('…9876');
    expect(await page.getByLabel(/Role mapping/).inputValue()).toBe('panya-admins = admin');
    expect(await page.getByText(`${base}/api/auth/sso/callback`).count()).toBe(1);
    await accessible();
    // A role no provider may grant is refused by field, and nothing changes.
    await page.getByLabel(/Role mapping/).fill('panya-admins = owner');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'roleMap' }).waitFor();
    await page.getByLabel(/Role mapping/).fill('panya-admins = admin\npanya-writers = editor');
    await page.getByLabel('Allow password sign-in').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await (await fetch(`${base}/c/acme/api/tenant/sso`, { headers: tenant.auth })).json();
    expect(saved).toMatchObject({ passwordLogin: false, roleMap: { 'panya-admins': 'admin', 'panya-writers': 'editor' }, clientSecretHint: '…9876' });
  });

  it("offers only single sign-on on the tenant's login page once password sign-in is off", async () => {
    const other = await browser.newContext();
    const fresh = await other.newPage();
    await fresh.goto(`${base}/admin/?tenant=acme`);
    await fresh.getByText('This organisation signs in with single sign-on only.').waitFor();
    expect(await fresh.getByLabel('Password').count()).toBe(0);
    await fresh.getByRole('link', { name: 'Sign in with SSO' }).click();
    await fresh.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    expect(await fresh.locator('[data-role]').textContent()).toBe('admin');
    await other.close();
  });
});
