/**
 * The admin app in a real browser (Debian's Chromium through playwright-core), against the
 * Express adapter on a local port: sign in, create an API key and call the API with it from
 * Node, upload a document and find it in the retrieval playground, publish it to the help
 * center and read it there, workspaces, hostnames, billing, inbox; roles, Thai, keyboard use,
 * and axe-core with no serious violation on each main screen. `PANYA_SCREENSHOTS=1` also
 * writes the screenshots of docs/screenshots/ (`pnpm screenshots`).
 */
import { mkdirSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { CloudflareEdge } from '@panya/edge';
import { startFakeCloudflare, type FakeCloudflare } from '@panya/edge/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { adminAssetsBuilt } from '@panya/admin';
import { browserAvailable, launchChromium, seriousA11yViolations } from '../../../testing/browser.js';
import { makeTenant } from './helpers.js';

const PASSWORD = 'correct horse battery';
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const SHOTS = process.env.PANYA_SCREENSHOTS === '1' ? join(import.meta.dirname, '../../../docs/screenshots') : null;

const runs = browserAvailable('admin app') && (adminAssetsBuilt() || (console.warn('admin app: browser tests skipped, the app is not built (pnpm build).'), false));

describe.skipIf(!runs)('admin app in the browser', { timeout: 45_000 }, () => {
  let engine: Engine;
  let server: Server;
  let cf: FakeCloudflare;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let helpBase: string;
  let tenant: Awaited<ReturnType<typeof makeTenant>>;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    // Listen first: the help host (help.localhost:<port>) names the port the engine is built with.
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    helpBase = `http://help.localhost:${port}`;
    cf = await startFakeCloudflare({ zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token' });
    const edge = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token', timeoutMs: 2_000 });
    engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), edge, edgeTarget: 'edge.panya.example', helpHost: parseHelpHost(helpBase), ingest: { pollMs: 50 } });
    await engine.start();
    server.on('request', createPanyaApp(engine, { secureCookies: false }));

    tenant = await makeTenant(engine, 'acme');
    for (const role of ['owner', 'viewer'] as const) {
      (await engine.users.createUser({ email: `${role}@acme.test`, password: PASSWORD, tenantSlug: 'acme', role }))._unsafeUnwrap();
    }
    const seed = async (title: string, contentMd: string, publicSurfaces: string[] = []) =>
      (await fetch(`${base}/api/docs?wait=true`, { method: 'POST', headers: { ...tenant.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ title, contentMd, publicSurfaces }) })).json();
    await seed('Refund policy', '# Refunds\n\nRefunds are issued within **14 days** of purchase.', ['help_center']);
    await seed('Shipping times', '# Shipping\n\nBangkok: 1-2 days. Chiang Mai: 2-3 days.', ['help_center']);
    await seed('นโยบายการคืนเงิน', 'คืนเงินภายใน 14 วันหลังการสั่งซื้อ');
    // A conversation with a thumbs-down, for the inbox.
    const chat = await (await fetch(`${base}/api/chat`, { method: 'POST', headers: { ...tenant.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'How long do refunds take?' }) })).text();
    const messageId = /"messageId":"(msg_\w+)"/.exec(chat)![1]!;
    await fetch(`${base}/api/messages/${messageId}/feedback`, { method: 'POST', headers: { ...tenant.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ rating: 'down', comment: 'I paid by cash' }) });

    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(8_000);
    page.on('dialog', (dialog) => void dialog.accept());
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspErrors.push(msg.text());
    });
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await engine?.close();
    await cf?.close();
  });

  async function screen(name: string) {
    // Every main screen: no serious accessibility violation, and no CSP refusal so far.
    expect((await seriousA11yViolations(page)).map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
    expect(cspErrors).toEqual([]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** The help center's home page as a fresh request on the help host (Node cannot resolve help.localhost). */
  function helpHome(): Promise<string> {
    const { host, port } = new URL(helpBase);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/acme/', headers: { Host: host } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve(body));
      });
      req.on('error', reject).end();
    });
  }

  async function open(label: string) {
    await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
  }

  it('serves the app from the same origin under a strict CSP, and signs in with the keyboard', async () => {
    const res = await page.goto(`${base}/admin`);
    expect(res!.url()).toBe(`${base}/admin/`);
    expect(res!.headers()['content-security-policy']).toMatch(/default-src 'self'/);
    await page.getByLabel('E-mail').waitFor();
    await screen('login');
    // Keyboard only: the e-mail field, Tab to the password, Enter submits.
    await page.getByLabel('E-mail').focus();
    await page.keyboard.type('owner@acme.test');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    expect(await page.locator('[data-role]').textContent()).toBe('owner');
    // The skip link is the first stop and takes focus to the content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).toBe('main');
  });

  it('creates an API key whose secret is shown once and works from Node, then revokes it', async () => {
    await open('API keys');
    await page.getByLabel('Name', { exact: true }).fill('Server key');
    await page.getByRole('checkbox', { name: 'write' }).check();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    await expect.poll(() => page.getByRole('button', { name: /Copy: New API key/ }).count()).toBe(1);
    // The key works as curl would use it.
    const docs = await fetch(`${base}/api/docs`, { headers: { Authorization: `Bearer ${key}` } });
    expect(docs.status).toBe(200);
    expect(((await docs.json()) as { data: unknown[] }).data.length).toBe(3);
    const row = page.locator('tr', { hasText: 'Server key' });
    expect(await row.textContent()).toContain(`${key.slice(0, 13)}…`);
    expect(await row.textContent()).toContain('read, write');
    await screen('api-keys');
    // Gone once dismissed: the list shows the prefix only.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.content()).not.toContain(key);
    await row.getByRole('button', { name: /Revoke/ }).click();
    await row.getByText(/Revoked/).waitFor();
    expect((await fetch(`${base}/api/docs`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it('issues a publishable key for one workspace and saves allowed origins', async () => {
    await page.getByRole('textbox', { name: 'Allowed origins' }).fill('https://help.acme.example');
    await page.getByRole('button', { name: 'Save origins' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('radio', { name: /Publishable/ }).check();
    // The app says what a publishable key is, and offers no key that could read more.
    expect(await page.getByTestId('publishable-note').textContent()).toMatch(/public.*published to the help center.*never internal/s);
    expect(await page.locator('select[name=workspace] option[value=""]').count()).toBe(0);
    await page.locator('select[name=workspace]').selectOption('default');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^svc_pub_/);
    const search = (origin: string) => fetch(`${base}/api/search`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Origin: origin }, body: JSON.stringify({ query: 'refunds' }) });
    expect((await search('https://help.acme.example')).status).toBe(200);
    expect((await search('https://evil.example')).status).toBe(403);
    await page.getByRole('button', { name: 'I have copied it' }).click();
  });

  it('uploads a file by the file picker, shows it indexed, and finds it in the playground with ranks', async () => {
    await open('Documents');
    await screen('documents');
    await page.locator('input[type=file]').setInputFiles({ name: 'returns.md', mimeType: 'text/markdown', buffer: Buffer.from('# Zebra returns\n\nZebrafish tanks can be returned within 30 days.') });
    await page.getByText(/Uploaded 1 file/).waitFor();
    const row = page.locator('tr', { hasText: 'Zebra returns' });
    await row.getByText('Indexed').waitFor({ timeout: 20_000 });

    await open('Retrieval playground');
    await page.getByLabel('Query').fill('zebrafish tanks');
    await page.getByRole('button', { name: 'Search' }).click();
    const first = page.locator('table.results tbody tr').first();
    await first.waitFor();
    expect(await first.textContent()).toContain('Zebra returns');
    expect(await first.locator('[data-col=lexical]').textContent()).toMatch(/^1 \(\+0\.\d{4}\)$/);
    expect(Number(await first.locator('[data-col=score]').textContent())).toBeGreaterThan(0);
    expect(await page.getByText(/RRF k = \d+/).count()).toBe(1);
    await screen('playground');
  });

  it('runs an evaluation set from the playground and shows the run beside the previous one', async () => {
    const call = async (method: string, path: string, body?: object): Promise<any> =>
      (await fetch(`${base}/api${path}`, { method, headers: { ...tenant.auth, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })).json();
    const docs = (await call('GET', '/docs')).data as { id: string; title: string }[];
    const id = (title: string) => docs.find((d) => d.title === title)!.id;
    const set = await call('POST', '/eval/sets', {
      name: 'Support FAQ',
      questions: [
        { question: 'How long do refunds take?', documentIds: [id('Refund policy')] },
        { question: 'Chiang Mai delivery days', documentIds: [id('Shipping times')] },
        { question: 'คืนเงินภายในกี่วัน', documentIds: [id('นโยบายการคืนเงิน')] },
        { question: 'refunds shipping', documentIds: [id('Shipping times')] },
      ],
    });
    // The previous run: trigram only.
    expect((await call('POST', '/eval/runs', { setId: set.id, weights: { lexical: 0, semantic: 0, trigram: 1 } })).status).toBe('done');

    await open('Documents'); // the playground loads the sets as it opens
    await open('Retrieval playground');
    const panel = page.getByRole('region', { name: 'Evaluation' });
    await panel.getByLabel('Evaluation set').waitFor();
    expect(await panel.getByLabel('Evaluation set').locator('option:checked').textContent()).toBe('Support FAQ (4 questions)');
    // The latest run is shown at once: the first of its set.
    await panel.getByText('The first run of this set').waitFor();
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    await panel.getByText(/\d better, \d worse, \d unchanged since the previous run/).waitFor();
    const runs = (await call('GET', `/eval/runs?setId=${set.id}`)).data as { id: string }[];
    expect(runs).toHaveLength(2);
    const shown = await call('GET', `/eval/runs/${runs[0]!.id}`);
    const row = panel.locator('tr[data-metric=mrr]');
    expect(await row.locator('[data-col=value]').textContent()).toBe(shown.metrics.mrr.toFixed(4));
    expect(await row.locator('[data-col=change]').textContent()).toMatch(/^([+-]\d\.\d{4}|0\.0000)$/);
    expect(Number(await row.locator('[data-col=change]').textContent())).toBeCloseTo(shown.diff.metrics.mrr, 4);
    expect(await panel.locator('[data-changes=wins] li').count()).toBe(shown.diff.wins.length);
    expect(await panel.locator('[data-changes=losses] li').count()).toBe(shown.diff.losses.length);
    await screen('playground-evaluation');
  });

  it('toggles Help center on a document and shows the article on the help center page', async () => {
    const home = `${helpBase}/acme/`;
    const helpPage = await context.newPage();
    await helpPage.goto(home);
    expect(await helpPage.content()).not.toContain('Zebra returns');

    await open('Documents');
    // The switch reflects the saved document: it turns on once the server has answered, not at the click.
    const publish = page.getByRole('checkbox', { name: 'Publish "Zebra returns" in the help center' });
    await publish.click();
    await expect.poll(() => publish.isChecked(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => helpHome(), { timeout: 10_000 }).toContain('Zebra returns');
    await helpPage.reload();
    await helpPage.getByRole('link', { name: 'Zebra returns' }).click();
    await helpPage.getByText('Zebrafish tanks can be returned within 30 days.').waitFor();
    await helpPage.close();
  });

  it('edits markdown with a live preview that renders no raw HTML', async () => {
    await page.getByRole('button', { name: 'Edit: Zebra returns' }).click();
    const editor = page.getByLabel('Content (Markdown)');
    await editor.fill('# Zebra returns\n\nWithin **30 days**.\n\n<img src=x onerror="alert(1)">');
    expect(await page.locator('.preview strong').textContent()).toBe('30 days');
    expect(await page.locator('.preview img').count()).toBe(0);
    await screen('document-editor');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
  });

  it('creates a workspace with a brand accent, deletes it with the countdown and restores it', async () => {
    await open('Workspaces');
    await page.getByLabel('Slug').fill('brand-b');
    await page.getByLabel('Name', { exact: true }).fill('Brand B');
    await page.getByLabel('Brand accent', { exact: true }).fill('#7c3aed');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const row = page.locator('tr[data-ws=brand-b]');
    await row.waitFor();
    expect(await row.getByLabel('Brand accent: brand-b').inputValue()).toBe('#7c3aed');
    await row.getByRole('button', { name: 'Delete: Brand B' }).click();
    await row.getByText('Deleted: 30 days left to restore').waitFor();
    await screen('workspaces');
    await row.getByRole('button', { name: 'Restore: Brand B' }).click();
    await row.getByText('Live').waitFor();
  });

  it('adds a custom hostname with its exact DNS records and copy buttons', async () => {
    await open('Custom hostnames');
    await page.getByRole('textbox', { name: 'Hostname' }).fill('help.acme.example');
    await page.getByRole('button', { name: 'Add a hostname' }).click();
    const card = page.locator('[data-hostname="help.acme.example"]');
    await card.waitFor();
    expect(await card.locator('code').first().textContent()).toBe('help.acme.example');
    expect(await card.textContent()).toContain('edge.panya.example');
    expect(await card.textContent()).not.toMatch(/edge\.panya\.example\./);
    const copies = await card.locator('[data-copy]').evaluateAll((els) => els.map((e) => e.getAttribute('data-copy')));
    expect(copies).toContain('edge.panya.example');
    expect(copies.every((v) => v && !v.endsWith('.'))).toBe(true);
    await screen('hostnames');
  });

  it('shows the audit log: who changed what, before and after, filtered by kind of change', async () => {
    await open('Audit log');
    // The workspace restored by the signed-in owner in the test above, newest first.
    const restored = page.locator('tr[data-audit-type="workspace.restored"]');
    await restored.waitFor();
    expect(await restored.textContent()).toMatch(/user\s*usr_/);
    expect(await restored.textContent()).toMatch(/deletedAt: 20\d\d-.* → —|deletedAt: 20\d\d-[^→]*→ null/);
    const types = await page.locator('tr[data-audit-type]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-audit-type')));
    expect(types.indexOf('hostname.added')).toBeLessThan(types.indexOf('workspace.restored'));
    expect(types).toContain('document.created');
    await screen('audit');
    await page.getByLabel('Change').fill('hostname.added');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.locator('tr[data-audit-type]:not([data-audit-type="hostname.added"])').count()).toBe(0);
    expect(await page.locator('tr[data-audit-type]').count()).toBe(1);
    expect(await page.locator('tr[data-audit-type]').textContent()).toContain('hostname: — → help.acme.example');
  });

  it('shows usage and billing, and the inbox with a conversation, its citations and feedback', async () => {
    await open('Usage and billing');
    // This server has no payment processor: usage only, said so, without a projected charge or checkout.
    await page.locator('#bill-not-configured').getByText('Billing is not configured on this server').waitFor();
    await page.getByRole('cell', { name: 'API queries' }).waitFor();
    expect(await page.getByText('Projected charge').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Check out/ }).count()).toBe(0);
    // The hard cap beside the pool, and the resolution bill with its states.
    await page.getByText(/Chat hard cap: .* resolutions this month/).waitFor();
    await page.getByRole('heading', { name: 'Billed resolutions' }).waitFor();
    await screen('billing');
    await open('Inbox');
    await page.getByText('thumbs_down').waitFor();
    await page.locator('#inbox-needs ~ ul, [aria-labelledby=inbox-needs]').getByRole('button', { name: 'Open' }).first().click();
    await page.getByText('I paid by cash').waitFor();
    expect(await page.getByText(/Citations \(\d+\)/).count()).toBeGreaterThan(0);
    // The conversation list tells conversations apart: first question, workspace, last message, feedback.
    const row = page.locator('#inbox-conversations ~ table tr[data-conversation], [aria-labelledby=inbox-conversations] tr[data-conversation]').first();
    expect(await row.locator('td').allTextContents()).toEqual(expect.arrayContaining(['How long do refunds take?', 'Default', '👎']));
    await screen('inbox');
  });

  it('lists content gaps, writes an article from one and prefills a curated answer', async () => {
    // Two questions the knowledge base cannot answer, beside the thumbed-down one.
    for (const query of ['Do you accept Apple Pay?', 'Can I pay with Apple Pay?']) {
      await (await fetch(`${base}/api/chat`, { method: 'POST', headers: { ...tenant.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }) })).text();
    }
    await open('Content gaps');
    // The first read starts the computation; the screen reads again until it is there.
    const row = page.locator('tr[data-gap]', { hasText: 'Apple Pay' });
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe('2');
    await page.locator('tr[data-gap]', { hasText: 'How long do refunds take?' }).waitFor();
    await screen('gaps');
    await row.getByRole('button', { name: /^Add a curated answer/ }).click();
    expect(await page.getByLabel('Question', { exact: true }).inputValue()).toBe('Can I pay with Apple Pay?');
    await page.getByLabel('Answer', { exact: true }).fill('Not yet: we accept cards and bank transfer.');
    const sent = page.waitForRequest((r) => r.url().endsWith('/curated-answers') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await sent).postDataJSON()).toEqual({ question: 'Can I pay with Apple Pay?', answer: 'Not yet: we accept cards and bank transfer.' });
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    // Write an article: the document editor opens with the gap's questions.
    await row.getByRole('button', { name: /^Write an article/ }).click();
    await page.getByRole('heading', { name: 'New document', level: 1 }).waitFor();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Answer: Can I pay with Apple Pay?');
    const draft = await page.locator('textarea[name=contentMd]').inputValue();
    expect(draft).toContain('- Can I pay with Apple Pay?');
    expect(draft).toContain('- Do you accept Apple Pay?');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  });

  it('speaks Thai', async () => {
    await page.getByRole('button', { name: 'ภาษาไทย' }).click();
    await page.getByRole('link', { name: 'เอกสาร' }).click();
    await page.getByRole('heading', { name: 'เอกสาร', level: 1 }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('th');
    await screen('documents-th');
    // Roles, plans and the billing notice in Thai too.
    expect(await page.locator('[data-role]').textContent()).toBe('เจ้าของ');
    await page.getByRole('link', { name: 'การใช้งานและการชำระเงิน' }).click();
    await page.locator('#bill-not-configured').getByText('เซิร์ฟเวอร์นี้ยังไม่ได้ตั้งค่าการเรียกเก็บเงิน', { exact: false }).waitFor();
    expect(await page.locator('p', { hasText: 'แพ็กเกจ:' }).locator('strong').textContent()).toBe('ธุรกิจ');
    await page.getByRole('button', { name: 'English' }).click();
  });

  it('shows a viewer only what a viewer may do', async () => {
    const viewer = await browser.newContext();
    const vp = await viewer.newPage();
    await vp.goto(`${base}/admin/`);
    await vp.getByLabel('E-mail').fill('viewer@acme.test');
    await vp.getByLabel('Password').fill(PASSWORD);
    await vp.getByRole('button', { name: 'Sign in', exact: true }).click();
    await vp.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    const nav = await vp.getByRole('navigation').textContent();
    expect(nav).not.toContain('API keys');
    expect(nav).not.toContain('Workspaces');
    expect(await vp.getByRole('button', { name: 'New document' }).count()).toBe(0);
    expect(await vp.getByRole('checkbox', { name: 'Publish "Refund policy" in the help center' }).isDisabled()).toBe(true);
    await vp.goto(`${base}/admin/#/keys`);
    await vp.getByText('Your role cannot open this page.').waitFor();
    await viewer.close();
  });
});
