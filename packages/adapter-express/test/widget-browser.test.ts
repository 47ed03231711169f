// The chat widget and the help center's ask box in a real browser: a shop page on an allowed
// origin (its own server and port) embeds the widget with one tag; the help center is on its
// help host. Debian's Chromium through playwright-core (`testing/browser.ts`).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { browserAvailable, launchChromium, seriousA11yViolations } from '../../../testing/browser.js';
import { makeTenant } from './helpers.js';

const SCREENSHOTS = process.env.PANYA_SCREENSHOTS === '1';

/** In the page: whether the element holds the focus inside its shadow root (the widget's). */
const focusedInShadow = (el: unknown) => {
  const root = (el as { getRootNode(): { activeElement?: unknown; host?: unknown } }).getRootNode();
  return root.host !== undefined && root.activeElement === el;
};
/** In the page: the element's computed background colour. */
const background = (el: unknown) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

describe.skipIf(!browserAvailable('chat widget'))('chat widget and ask box in the browser', () => {
  let engine: Engine;
  let api: Server;
  let shop: Server;
  let browser: Browser;
  let context: BrowserContext;
  let apiOrigin: string;
  let helpOrigin: string;
  let shopOrigin: string;
  /** The same shop server under another origin (127.0.0.1 instead of localhost): not allowed. */
  let strangerOrigin: string;
  let docs: { refunds: string; thaiRefunds: string; internal: string };

  beforeAll(async () => {
    api = createServer();
    const apiPort = await listen(api);
    apiOrigin = `http://127.0.0.1:${apiPort}`;
    helpOrigin = `http://help.localhost:${apiPort}`;
    engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost(helpOrigin) });
    const app = createPanyaApp(engine);
    api.on('request', app);

    shop = createServer();
    const shopPort = await listen(shop);
    shopOrigin = `http://localhost:${shopPort}`;
    strangerOrigin = `http://127.0.0.1:${shopPort}`;

    const acme = await makeTenant(engine, 'acme');
    await request(app).patch(`/api/workspaces/${acme.defaultWorkspace.id}`).set(acme.auth).send({ name: 'Acme Support', brandAccent: '#0a6e47' }).expect(200);
    await request(app).patch('/api/tenant/settings').set(acme.auth).send({ allowedOrigins: [shopOrigin] }).expect(200);
    const post = async (body: Record<string, unknown>) => (await request(app).post('/api/docs?wait=true').set(acme.auth).send(body).expect(201)).body.id as string;
    docs = {
      refunds: await post({ title: 'Refund policy', contentMd: '# Refund policy\n\nRefunds are issued within 14 days of purchase to the original card.', publicSurfaces: ['help_center'] }),
      thaiRefunds: await post({ title: 'นโยบายการคืนเงิน', contentMd: '# นโยบายการคืนเงิน\n\nเราคืนเงินภายใน 14 วันหลังการสั่งซื้อ โดยโอนกลับเข้าบัตรที่ใช้ชำระ', publicSurfaces: ['help_center'] }),
      internal: await post({ title: 'Refund escalation (internal)', contentMd: 'Refunds above 10,000 baht need a manager approval before the 14 days.' }),
    };
    const key = (await engine.apiKeys.create(acme.tenant.id, { name: 'Shop widget', kind: 'publishable', scopes: ['read'], workspaceSlug: 'default', surface: 'help_center' }))._unsafeUnwrap().key;

    // The shop's pages: nothing but the one tag (and some hostile CSS the widget must not inherit).
    shop.on('request', (req, res) => {
      const lang = req.url === '/th' ? 'th' : 'en';
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Acme shop</title>
<style>* { font-family: serif !important; } button { background: red; } body { margin: 2rem; font: 16px sans-serif; }</style></head>
<body><main><h1>Acme shop</h1><p>Welcome to our shop.</p></main>
<script src="${apiOrigin}/widget.js" data-key="${key}" async></script></body></html>`);
    });

    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => shop?.close(r));
    await new Promise((r) => api?.close(r));
    engine?.close();
  });

  async function openWidget(page: Page, url: string) {
    await page.goto(url);
    const launcher = page.locator('[data-panya-widget] button.launcher');
    await launcher.waitFor();
    await launcher.click();
    await expect.poll(() => launcher.getAttribute('aria-expanded')).toBe('true');
    return launcher;
  }

  async function ask(page: Page, question: string) {
    const input = page.locator('[data-panya-widget] input[name="q"]');
    // Opening the panel puts the focus in the question field: type and press Enter, keyboard only.
    await expect.poll(() => input.evaluate(focusedInShadow)).toBe(true);
    await page.keyboard.type(question);
    await page.keyboard.press('Enter');
    const answer = page.locator('[data-panya-widget] .msg.bot:not(.intro)').last();
    await expect.poll(() => answer.getAttribute('aria-busy'), { timeout: 15_000 }).toBeNull();
    return answer;
  }

  it('answers in English with citations that open the help-center article; axe finds no serious violation', async () => {
    const page = await context.newPage();
    const streamed = page.waitForResponse((r) => r.url() === `${apiOrigin}/api/chat`);
    await openWidget(page, `${shopOrigin}/en`);
    expect(await page.locator('[data-panya-widget] [role="dialog"] h2').textContent()).toBe('Acme Support');
    // The page's CSS does not reach the widget.
    expect(await page.locator('[data-panya-widget] button.send').evaluate(background)).toBe('rgb(10, 110, 71)');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const answer = await ask(page, 'How long do refunds take?');
    expect((await streamed).headers()['content-type']).toMatch(/text\/event-stream/);
    expect(await answer.textContent()).toContain('14 days');
    const link = answer.locator('ol.sources a');
    expect(await link.count()).toBe(1);
    expect(await link.textContent()).toBe('Refund policy');
    expect(await link.getAttribute('href')).toBe(`${helpOrigin}/acme/articles/${docs.refunds}`);
    if (SCREENSHOTS) await page.screenshot({ path: new URL('../../../docs/screenshots/widget.png', import.meta.url).pathname });
    expect(await seriousA11yViolations(page)).toEqual([]);

    const [article] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await article.waitForLoadState();
    expect(await article.title()).toBe('Refund policy · Acme Support');
    await article.close();

    // Escape closes the panel and gives the focus back to the launcher.
    await page.locator('[data-panya-widget] input[name="q"]').focus();
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-panya-widget] [role="dialog"]').isHidden()).toBe(true);
    expect(await page.locator('[data-panya-widget] button.launcher').evaluate(focusedInShadow)).toBe(true);
    await page.close();
  });

  it('answers in Thai on a Thai page, citing the Thai article', async () => {
    const page = await context.newPage();
    const launcher = await openWidget(page, `${shopOrigin}/th`);
    expect(await launcher.getAttribute('aria-label')).toBe('ปิดแชท');
    const answer = await ask(page, 'คืนเงินภายในกี่วัน');
    expect(await answer.textContent()).toContain('14 วัน');
    const link = answer.locator('ol.sources a').first();
    expect(await link.getAttribute('href')).toBe(`${helpOrigin}/acme/articles/${docs.thaiRefunds}`);
    expect(await answer.textContent()).not.toContain('internal');
    await page.close();
  });

  it('answers an English question on a Thai page in English, with an English answer frame', async () => {
    const page = await context.newPage();
    const sent = page.waitForRequest((r) => r.url() === `${apiOrigin}/api/chat`);
    const launcher = await openWidget(page, `${shopOrigin}/th`);
    // The panel speaks the page's language…
    expect(await launcher.getAttribute('aria-label')).toBe('ปิดแชท');
    const answer = await ask(page, 'How long do refunds take?');
    // …the answer, its frame and the locale asked for follow the question's.
    expect(JSON.parse((await sent).postData()!).locale).toBe('en');
    expect(await answer.getAttribute('lang')).toBe('en');
    expect(await answer.textContent()).toContain('14 days');
    expect(await answer.locator('.sr').textContent()).toBe('Sources');
    expect(await answer.textContent()).not.toContain('แหล่งอ้างอิง');
    await page.close();
  });

  it.each([true, false])('the ask box of a Thai help-center page answers an English question in English (script: %s)', async (javaScriptEnabled) => {
    const ctx = await browser.newContext({ javaScriptEnabled });
    const page = await ctx.newPage();
    await page.goto(`${helpOrigin}/acme/?lang=th`);
    expect(await page.locator('html').getAttribute('lang')).toBe('th');
    await page.locator('form.ask input[name="q"]').fill('Do you ship to Japan?');
    await page.locator('form.ask button[type="submit"]').click();
    if (javaScriptEnabled) {
      const result = page.locator('.ask-result');
      await expect.poll(() => result.textContent(), { timeout: 15_000 }).toContain('The help center has no answer to this yet');
      expect(await result.getAttribute('lang')).toBe('en');
    } else {
      await page.waitForURL((url) => url.pathname === '/acme/ask');
      expect(await page.locator('main').textContent()).toContain('The help center has no answer to this yet');
      expect(await page.locator('main').textContent()).not.toContain('ศูนย์ช่วยเหลือยังไม่มีคำตอบ');
    }
    await ctx.close();
  }, 60_000);

  it('a page on an origin that is not allowed gets no widget and no answers', async () => {
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(`${strangerOrigin}/en`);
    await expect.poll(() => warnings.join('\n')).toContain("tenant's allowed origins");
    expect(await page.locator('[data-panya-widget]').count()).toBe(0);
    // Asking the chat endpoint directly from this page fails too (CORS refuses, the key is refused).
    const key = await page.locator('script[data-key]').getAttribute('data-key');
    const outcome = await page.evaluate(async ([url, k]) => {
      try {
        const res = await fetch(url!, { method: 'POST', headers: { Authorization: `Bearer ${k}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'How long do refunds take?' }) });
        return `status ${res.status}`;
      } catch {
        return 'blocked';
      }
    }, [`${apiOrigin}/api/chat`, key]);
    expect(outcome).toBe('blocked');
    await page.close();
  });

  it("the help center's ask box answers through its publishable key, with and without a script", async () => {
    // axe is injected as an inline script, which the help center's CSP (rightly) refuses.
    const axeContext = await browser.newContext({ bypassCSP: true });
    const page = await axeContext.newPage();
    await page.goto(`${helpOrigin}/acme/`);
    const asked = page.waitForRequest((r) => r.url() === `${helpOrigin}/acme/ask` && r.method() === 'POST');
    await page.getByLabel('Type your question').fill('How long do refunds take?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const sent = await asked;
    expect(sent.headers().authorization).toMatch(/^Bearer svc_pub_[0-9A-Za-z]{32}$/);
    const result = page.locator('.ask-result');
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toContain('14 days');
    expect(await result.locator('a').first().getAttribute('href')).toBe(`${helpOrigin}/acme/articles/${docs.refunds}`);
    expect(page.url()).toBe(`${helpOrigin}/acme/`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await axeContext.close();

    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`${helpOrigin}/acme/`);
    await plain.getByLabel('Type your question').fill('How long do refunds take?');
    await plain.getByRole('button', { name: 'Ask', exact: true }).click();
    await plain.waitForURL(`${helpOrigin}/acme/ask`);
    expect(await plain.locator('.answer').textContent()).toContain('14 days');
    await noScript.close();
  });
});
