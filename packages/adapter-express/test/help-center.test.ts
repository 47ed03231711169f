import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine, HELP_PAGE_VIEWS_PER_ADDRESS_PER_MINUTE, parseHelpHost, PUBLIC_BUDGETS, type Engine } from '@panya/core';
import { CloudflareEdge } from '@panya/edge';
import { startFakeCloudflare, type FakeCloudflare } from '@panya/edge/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const HELP = 'help.panya.example';

let cf: FakeCloudflare;
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;

beforeAll(async () => {
  cf = await startFakeCloudflare({ zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token' });
});
afterAll(() => cf.close());
beforeEach(() => {
  cf.hostnames.clear();
  cf.purges.length = 0;
  const edge = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token', timeoutMs: 2_000 });
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), edge, edgeTarget: 'edge.panya.example', helpHost: parseHelpHost(HELP) });
  app = createPanyaApp(engine, { helpCenter: { apiHostname: 'api.panya.example' } });
});
afterEach(() => engine.close());

type Auth = Record<string, string>;
async function doc(auth: Auth, body: Record<string, unknown>, path = '/api/docs') {
  return (await request(app).post(`${path}?wait=true`).set(auth).send(body).expect(201)).body as { id: string };
}

const page = (path: string, host = HELP) => request(app).get(path).set('Host', host);

/** Acme: two published articles, one internal; its default workspace branded. */
async function acmeWithArticles() {
  const acme = await makeTenant(engine, 'acme');
  await request(app).patch(`/api/workspaces/${acme.defaultWorkspace.id}`).set(acme.auth).send({ name: 'Acme Support', brandAccent: '#C0FFEE' }).expect(200);
  const refunds = await doc(acme.auth, {
    title: 'Refund policy',
    contentMd: '# Refund policy\n\nRefunds are issued within 14 days of purchase. [Contact us](https://acme.example/contact).',
    publicSurfaces: ['help_center'],
  });
  const shipping = await doc(acme.auth, { title: 'Shipping times', contentMd: 'Parcels arrive within 3 business days.', publicSurfaces: ['help_center'] });
  const internal = await doc(acme.auth, { title: 'Refund escalation (internal)', contentMd: 'Refunds above 10,000 baht need a manager. Refunds refunds refunds.' });
  return { acme, refunds, shipping, internal };
}

describe('help center on the help host', () => {
  it('shows an article title once, offers the other language by its name, and snippets without markdown markers', async () => {
    const { acme, refunds } = await acmeWithArticles();
    const article = await page(`/acme/articles/${refunds.id}`).expect(200);
    expect(article.text.match(/Refund policy<\/h1>/g)).toHaveLength(1);
    // The English page links to Thai, labelled in Thai; the Thai page links to English.
    expect(article.text).toMatch(/<footer><a href="[^"]*lang=th" hreflang="th" lang="th">ภาษาไทย<\/a><\/footer>/);
    const thai = await page(`/acme/articles/${refunds.id}?lang=th`).expect(200);
    expect(thai.text).toMatch(/hreflang="en" lang="en">English<\/a>/);
    await doc(acme.auth, { title: 'Warranty', contentMd: 'Every **kettle** has a _two-year_ `warranty`.\n\n- Keep the receipt', publicSurfaces: ['help_center'] });
    const found = await page('/acme/search?q=kettle%20warranty').expect(200);
    expect(found.text).toContain('Every kettle has a two-year warranty. Keep the receipt');
    expect(found.text).not.toContain('**kettle**');
    // Pages count under one metrics label, not as unmatched.
    const metrics = await request(app).get('/metrics').set('Host', 'api.panya.example').expect(200);
    expect(metrics.text).toMatch(/panya_http_requests_total\{method="GET",route="help_center",status="200"\} [1-9]/);
  });

  it('home lists the published articles only, in the workspace brand; th/en chrome by Accept-Language or ?lang=', async () => {
    const { refunds, shipping, internal } = await acmeWithArticles();
    const home = await page('/acme/').expect(200).expect('Content-Type', /text\/html/);
    expect(home.text).toContain('Acme Support');
    expect(home.text).toContain('--accent: #c0ffee');
    expect(home.text).toContain(`href="/acme/articles/${refunds.id}"`);
    expect(home.text).toContain(`href="/acme/articles/${shipping.id}"`);
    expect(home.text).not.toContain(internal.id);
    expect(home.text).toContain('<html lang="en">');
    expect(home.text).toContain('Search articles');

    const thai = await page('/acme').set('Accept-Language', 'th-TH,th;q=0.9,en;q=0.5').expect(200);
    expect(thai.text).toContain('<html lang="th">');
    expect(thai.text).toContain('ค้นหาบทความ');
    expect(thai.headers.vary).toMatch(/Accept-Language/);
    const chosen = await page('/acme/?lang=en').set('Accept-Language', 'th').expect(200);
    expect(chosen.text).toContain('<html lang="en">');
    // An explicit choice is kept on the site's links.
    expect(chosen.text).toContain(`href="/acme/articles/${refunds.id}?lang=en"`);
  });

  it('article pages render markdown without raw HTML or javascript: links; unpublished and foreign articles are 404', async () => {
    const { acme, internal } = await acmeWithArticles();
    const risky = await doc(acme.auth, {
      title: 'Formatting',
      contentMd: [
        '## Steps',
        '',
        '<script>alert(1)</script>',
        '',
        '[click](javascript:alert(1)) and [also](JaVaScRiPt:alert(2)) and [entity](javascript&#58;alert(3)) and [ok](https://acme.example/ok)',
        '',
        '<img src=x onerror=alert(4)> ![pic](data:image/svg+xml;base64,PHN2Zz4=)',
        '',
        '`code <b>` **bold**',
      ].join('\n'),
      publicSurfaces: ['help_center'],
    });
    const article = await page(`/acme/articles/${risky.id}`).expect(200);
    expect(article.text).toContain('<h2 id="steps">Steps</h2>');
    expect(article.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(article.text).not.toMatch(/<script(?! src="\/_help\/ask\.js" defer><\/script>)/i);
    expect(article.text).not.toMatch(/href="javascript/i);
    expect(article.text).not.toMatch(/<img[^>]*onerror/i);
    expect(article.text).not.toContain('src="data:');
    expect(article.text).toContain('<a href="https://acme.example/ok" rel="nofollow noopener">ok</a>');
    expect(article.text).toContain('<code>code &lt;b&gt;</code> <strong>bold</strong>');
    expect(article.headers['content-security-policy']).toContain("default-src 'none'");

    await page(`/acme/articles/${internal.id}`).expect(404);
    const globex = await makeTenant(engine, 'globex');
    const foreign = await doc(globex.auth, { title: 'Globex', contentMd: 'Globex article', publicSurfaces: ['help_center'] });
    await page(`/acme/articles/${foreign.id}`).expect(404);
    await page(`/globex/articles/${foreign.id}`).expect(200);
  });

  it('search runs the hybrid search over published documents only', async () => {
    const { refunds, internal } = await acmeWithArticles();
    const results = await page('/acme/search?q=refunds').expect(200);
    expect(results.text).toContain(`href="/acme/articles/${refunds.id}"`);
    expect(results.text).not.toContain(internal.id);
    expect(results.text).toContain('Results for “refunds”');
    expect(results.headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
    const none = await page('/acme/search?q=zeppelin').expect(200);
    expect(none.text).toContain('No article matches your search');
  });

  it('the ask box answers from published documents only, as a counted query', async () => {
    const { acme, refunds, internal } = await acmeWithArticles();
    const answer = await request(app).post('/acme/ask').set('Host', HELP).type('form').send({ q: 'How long do refunds take?' }).expect(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.text).toContain('14 days');
    expect(answer.text).toContain(`href="/acme/articles/${refunds.id}"`);
    expect(answer.text).not.toContain(internal.id);
    expect(answer.text).not.toContain('manager');
    expect(await engineInternals(engine).store.usage.countQueries(acme.tenant.id, new Date().toISOString().slice(0, 7))).toMatchObject({ answer: 1 });
    await request(app).post('/acme/ask').set('Host', HELP).type('form').send({ q: '   ' }).expect(400);
  });

  it('answers 404 when no document has Help center ticked, for unknown slugs and at the root', async () => {
    const globex = await makeTenant(engine, 'globex');
    await doc(globex.auth, { title: 'Internal only', contentMd: 'Not public.' });
    const missing = await page('/globex/').expect(404).expect('Content-Type', /text\/html/);
    expect(missing.text).toContain('Page not found');
    await page('/globex/search?q=public').expect(404);
    await page('/nobody/').expect(404);
    await page('/').expect(404);
  });

  it('pages carry an ETag and Cache-Control; a matching If-None-Match gets 304', async () => {
    await acmeWithArticles();
    const first = await page('/acme/').expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=60, s-maxage=86400');
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    const again = await page('/acme/').set('If-None-Match', first.headers.etag!).expect(304);
    expect(again.text ?? '').toBe('');
    await page('/acme/').set('If-None-Match', '"other"').expect(200);
  });

  it('serves a workspace at /{tenant}/_w/{workspace}/ in its own brand; a deleted workspace is 404', async () => {
    const { acme } = await acmeWithArticles();
    const ws = (await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'partners', name: 'Partner Desk', brandAccent: '#112233' }).expect(201)).body;
    const partnerDoc = await doc(acme.auth, { title: 'Partner onboarding', contentMd: 'Partners sign the agreement first.', publicSurfaces: ['help_center'] }, '/c/acme/_w/partners/api/docs');
    const home = await page('/acme/_w/partners/').expect(200);
    expect(home.text).toContain('Partner Desk');
    expect(home.text).toContain('--accent: #112233');
    expect(home.text).toContain(`href="/acme/_w/partners/articles/${partnerDoc.id}"`);
    expect(home.text).not.toContain('Refund policy');
    await page(`/acme/articles/${partnerDoc.id}`).expect(404);
    await request(app).delete(`/api/workspaces/${ws.id}`).set(acme.auth).expect(200);
    await page('/acme/_w/partners/').expect(404);
  });

  it('the API keeps working on the API host; on the help host /api is a help-center path', async () => {
    const { acme } = await acmeWithArticles();
    await request(app).get('/api/docs').set('Host', 'api.panya.example').set(acme.auth).expect(200);
    await request(app).get('/api/docs').set(acme.auth).expect(200);
    const onHelp = await page('/api/docs').set(acme.auth).expect(404);
    expect(onHelp.headers['content-type']).toMatch(/text\/html/);
  });

  it('a document change purges its workspace pages at the edge', async () => {
    const { acme, refunds } = await acmeWithArticles();
    cf.purges.length = 0;
    await request(app).patch(`/api/docs/${refunds.id}`).set(acme.auth).send({ publicSurfaces: [] }).expect(200);
    await vi.waitFor(() => {
      expect(cf.purges).toContainEqual({ files: [`https://${HELP}/acme`] });
      expect(cf.purges).toContainEqual({ prefixes: [`${HELP}/acme/`] });
    });
    cf.purges.length = 0;
    await request(app).delete(`/api/docs/${refunds.id}`).set(acme.auth).expect(204);
    await vi.waitFor(() => expect(cf.purges).toContainEqual({ prefixes: [`${HELP}/acme/`] }));
  });

  it('renaming or re-branding a workspace purges its pages too (they show its name and accent)', async () => {
    const { acme } = await acmeWithArticles();
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'partners', name: 'Partner Desk' }).expect(201);
    const ws = (await request(app).get('/api/workspaces').set(acme.auth).expect(200)).body.data.find((w: { slug: string }) => w.slug === 'partners');
    cf.purges.length = 0;
    await request(app).patch(`/api/workspaces/${ws.id}`).set(acme.auth).send({ brandAccent: '#445566' }).expect(200);
    await vi.waitFor(() => expect(cf.purges).toContainEqual({ prefixes: [`${HELP}/acme/_w/partners/`] }));
    expect(cf.purges).toContainEqual({ files: [`https://${HELP}/acme/_w/partners`] });
  });
});

describe('help center on custom hostnames', () => {
  /** Registers a hostname for the tenant and lets the edge activate it. */
  async function activeHostname(auth: Auth, hostname: string) {
    const created = (await request(app).post('/api/tenant/custom-hostnames').set(auth).send({ hostname }).expect(201)).body;
    cf.setState(created.edgeHostnameId, { status: 'active', ssl: 'active' });
    expect((await request(app).post(`/api/tenant/custom-hostnames/${created.id}`).set(auth).expect(200)).body.status).toBe('active');
    return created as { id: string };
  }

  it('an active hostname serves the default workspace at /… and workspaces at /_w/{slug}/…', async () => {
    const { acme, refunds } = await acmeWithArticles();
    await activeHostname(acme.auth, 'help.acme.co.th');
    const home = await page('/', 'help.acme.co.th').expect(200);
    expect(home.text).toContain('Acme Support');
    expect(home.text).toContain(`href="/articles/${refunds.id}"`);
    await page(`/articles/${refunds.id}`, 'help.acme.co.th').expect(200);
    expect((await page('/search?q=refund', 'help.acme.co.th').expect(200)).text).toContain(`href="/articles/${refunds.id}"`);
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'partners', name: 'Partner Desk' }).expect(201);
    await doc(acme.auth, { title: 'Partner onboarding', contentMd: 'Partners sign first.', publicSurfaces: ['help_center'] }, '/c/acme/_w/partners/api/docs');
    expect((await page('/_w/partners/', 'help.acme.co.th').expect(200)).text).toContain('Partner Desk');
    // The port of the Host header does not matter.
    await page('/', 'help.acme.co.th:8443').expect(200);
  });

  it('a hostname not yet active is 404; an inactive one answers 301 to the help host path, query kept', async () => {
    const { acme } = await acmeWithArticles();
    const pending = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.co.th' }).expect(201)).body;
    expect(pending.status).toBe('verifying_dns');
    await page('/', 'help.acme.co.th').expect(404);
    cf.setState(pending.edgeHostnameId, { status: 'active', ssl: 'active' });
    await request(app).post(`/api/tenant/custom-hostnames/${pending.id}`).set(acme.auth).expect(200);
    (await engine.tenancy.update('acme', { plan: 'team' }))._unsafeUnwrap();
    const moved = await page('/search?q=refund', 'help.acme.co.th').expect(301);
    expect(moved.headers.location).toBe(`https://${HELP}/acme/search?q=refund`);
    // The plan change purged the hostname's cached pages.
    expect(cf.purges).toContainEqual({ hosts: ['help.acme.co.th'] });
  });

  it('unknown hosts are not served a help center; hosts that are IPs or the API host go to the API', async () => {
    await acmeWithArticles();
    const unknown = await page('/', 'docs.unknown.example').expect(404);
    expect(unknown.headers['content-type']).toMatch(/application\/problem\+json/);
    await page('/acme/', 'docs.unknown.example').expect(404);
    await request(app).get('/healthz').set('Host', 'help.acme.co.th').expect(200);
  });
});

describe("the ask box answers through the help center's publishable key", () => {
  const keyIn = (html: string) => /data-key="(svc_pub_[0-9A-Za-z]{32})"/.exec(html)?.[1];
  const origin = `https://${HELP}`;
  const askJson = (key: string | undefined, body: Record<string, unknown>, from: string | null = origin, path = '/acme/ask', host = HELP) => {
    const req = request(app).post(path).set('Host', host).set('Content-Type', 'application/json');
    if (key) req.set('Authorization', `Bearer ${key}`);
    if (from) req.set('Origin', from);
    return req.send(body);
  };

  it('pages carry a publishable key bound to the workspace and restricted to published documents; the script asks with it', async () => {
    const { acme, refunds, internal } = await acmeWithArticles();
    const home = await page('/acme/').expect(200);
    const key = keyIn(home.text)!;
    expect(key).toBeDefined();
    expect(home.text).toContain('<script src="/_help/ask.js" defer></script>');
    expect(home.headers['content-security-policy']).toContain("script-src 'self'");
    // The same key on every page of the site, listed among the tenant's keys (never its full value).
    expect(keyIn((await page(`/acme/articles/${refunds.id}`).expect(200)).text)).toBe(key);
    const listed = (await engine.apiKeys.list(acme.tenant.id)).filter((k) => k.kind === 'publishable');
    expect(listed).toMatchObject([{ name: 'Help center', surface: 'help_center', workspaceId: acme.defaultWorkspace.id, scopes: ['read'] }]);
    expect(JSON.stringify(listed)).not.toContain(key);

    const answer = await askJson(key, { query: 'How long do refunds take?', locale: 'en' }).expect(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body.answer).toContain('14 days');
    expect(answer.body.citations.map((c: { documentId: string }) => c.documentId)).toEqual([refunds.id]);
    expect(JSON.stringify(answer.body)).not.toContain(internal.id);
    expect(answer.headers['ratelimit-limit']).toBeDefined();
    expect(await engineInternals(engine).store.usage.countQueries(acme.tenant.id, new Date().toISOString().slice(0, 7))).toMatchObject({ answer: 1 });

    // The key's own rules: a browser key from its pages only, never without Origin or from another site.
    expect((await askJson(key, { query: 'refunds' }, null).expect(403)).body.detail).toContain('browser page');
    await askJson(key, { query: 'refunds' }, 'https://evil.example').expect(403);
    await askJson(undefined, { query: 'refunds' }).expect(401);
    // Bad input is the answer endpoint's problem, counted nothing.
    expect((await askJson(key, { query: '' }).expect(400)).headers['content-type']).toMatch(/problem\+json/);
    // The same key on the API reads published documents only, from the help center's origin.
    const searched = await request(app).post('/api/search').set({ Authorization: `Bearer ${key}`, Origin: origin }).send({ query: 'refunds manager' }).expect(200);
    expect(searched.body.results.length).toBeGreaterThan(0);
    expect(searched.body.results.every((r: { documentId: string }) => r.documentId !== internal.id)).toBe(true);
    await request(app).get('/api/docs').set({ Authorization: `Bearer ${key}`, Origin: origin }).expect(403);
  });

  it("another key does not answer on this help center: a secret key, another workspace's key, an unrestricted publishable key", async () => {
    const { acme } = await acmeWithArticles();
    await request(app).patch('/api/tenant/settings').set(acme.auth).send({ allowedOrigins: [origin] }).expect(200);
    const unrestricted = (await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
    expect((await askJson(unrestricted, { query: 'refunds' }).expect(403)).body.detail).toContain('does not answer on this help center');
    await askJson(acme.key, { query: 'refunds' }).expect(403);
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'partners', name: 'Partner Desk' }).expect(201);
    await doc(acme.auth, { title: 'Partner onboarding', contentMd: 'Partners sign first.', publicSurfaces: ['help_center'] }, '/c/acme/_w/partners/api/docs');
    const partnersKey = keyIn((await page('/acme/_w/partners/').expect(200)).text)!;
    expect(partnersKey).not.toBe(keyIn((await page('/acme/').expect(200)).text));
    await askJson(partnersKey, { query: 'refunds' }).expect(403);
    await askJson(partnersKey, { query: 'partners sign' }, origin, '/acme/_w/partners/ask').expect(200);
  });

  it('revoking the key purges the pages that carried it; the next page provisions a new one', async () => {
    const { acme } = await acmeWithArticles();
    const key = keyIn((await page('/acme/').expect(200)).text)!;
    const record = (await engine.apiKeys.list(acme.tenant.id)).find((k) => k.name === 'Help center')!;
    cf.purges.length = 0;
    (await engine.apiKeys.revoke(acme.tenant.id, record.id))._unsafeUnwrap();
    expect(cf.purges).toContainEqual({ prefixes: [`${HELP}/acme/`] });
    await askJson(key, { query: 'refunds' }).expect(401);
    const fresh = keyIn((await page('/acme/').expect(200)).text)!;
    expect(fresh).not.toBe(key);
    await askJson(fresh, { query: 'How long do refunds take?' }).expect(200);
  });

  it('on an active custom hostname the key works from that hostname', async () => {
    const { acme } = await acmeWithArticles();
    const created = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.co.th' }).expect(201)).body;
    cf.setState(created.edgeHostnameId, { status: 'active', ssl: 'active' });
    await request(app).post(`/api/tenant/custom-hostnames/${created.id}`).set(acme.auth).expect(200);
    const key = keyIn((await page('/', 'help.acme.co.th').expect(200)).text)!;
    await askJson(key, { query: 'How long do refunds take?' }, 'https://help.acme.co.th', '/ask', 'help.acme.co.th').expect(200);
    // The form without a script: the server asks with the site's key and origin.
    const form = await request(app).post('/ask').set('Host', 'help.acme.co.th').type('form').send({ q: 'How long do refunds take?' }).expect(200);
    expect(form.text).toContain('14 days');
  });

  it('serves the ask script with caching headers', async () => {
    await acmeWithArticles();
    const script = await page('/_help/ask.js').expect(200).expect('Content-Type', /text\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=86400');
    expect(script.text).toContain("form.ask[data-key]");
    await page('/_help/ask.js').set('If-None-Match', script.headers.etag!).expect(304);
  });
});

describe('host look-ups and operations endpoints on help hosts', () => {
  it('/readyz and /metrics answer on the API host, 404 on the help host and custom hostnames', async () => {
    const { acme } = await acmeWithArticles();
    // The worker is not started here: readiness answers 503 naming it, on the API host.
    expect((await request(app).get('/readyz').set('Host', 'api.panya.example')).headers['content-type']).toMatch(/json/);
    await request(app).get('/metrics').set('Host', 'api.panya.example').expect(200);
    await page('/readyz').expect(404);
    await page('/metrics').expect(404);
    const created = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.co.th' }).expect(201)).body;
    cf.setState(created.edgeHostnameId, { status: 'active', ssl: 'active' });
    await request(app).post(`/api/tenant/custom-hostnames/${created.id}`).set(acme.auth).expect(200);
    await page('/readyz', 'help.acme.co.th').expect(404);
    await page('/metrics', 'help.acme.co.th').expect(404);
  });

  it('API requests on a dotted host look the host up once; adding or removing a hostname here is seen at once', async () => {
    const { acme } = await acmeWithArticles();
    const byHost = vi.spyOn(engineInternals(engine).store.hostnames, 'findByHostname');
    const byTomb = vi.spyOn(engineInternals(engine).store.tombstones, 'findByHostname');
    for (let i = 0; i < 3; i++) await request(app).get('/api/docs').set('Host', 'api2.panya.example').set(acme.auth).expect(200);
    expect(byHost.mock.calls.filter(([h]) => h === 'api2.panya.example')).toHaveLength(1);
    expect(byTomb.mock.calls.filter(([h]) => h === 'api2.panya.example')).toHaveLength(1);
    // A hostname verified on this node is a help host at the next request (it was cached as "not");
    // registered but unverified, it takes nothing from the API.
    await page('/', 'help.acme.co.th').expect(404).expect('Content-Type', /problem\+json/);
    const created = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.co.th' }).expect(201)).body;
    await page('/', 'help.acme.co.th').expect(404).expect('Content-Type', /problem\+json/);
    cf.setState(created.edgeHostnameId, { status: 'active', ssl: 'active' });
    await request(app).post(`/api/tenant/custom-hostnames/${created.id}`).set(acme.auth).expect(200);
    await page('/', 'help.acme.co.th').expect(200).expect('Content-Type', /text\/html/);
    await request(app).delete(`/api/tenant/custom-hostnames/${created.id}`).set(acme.auth).expect(200);
    await page('/', 'help.acme.co.th').expect(404).expect('Content-Type', /problem\+json/);
  });
});

describe('public surfaces have their own budgets, per visitor inside the site', () => {
  const keyIn = (html: string) => /data-key="(svc_pub_[0-9A-Za-z]{32})"/.exec(html)?.[1];
  const origin = `https://${HELP}`;

  /** A Free tenant's help center behind one proxy: visitors are told apart by X-Forwarded-For. */
  async function freeHelpCenter() {
    app = createPanyaApp(engine, { helpCenter: { apiHostname: 'api.panya.example' }, trustProxy: 1 });
    const acme = await makeTenant(engine, 'acme', undefined, 'free');
    await doc(acme.auth, { title: 'Refund policy', contentMd: 'Refunds are issued within 14 days of purchase.', publicSurfaces: ['help_center'] });
    const key = keyIn((await page('/acme/').expect(200)).text)!;
    const ask = (ip: string, query = 'How long do refunds take?') =>
      request(app).post('/acme/ask').set({ Host: HELP, 'Content-Type': 'application/json', Origin: origin, Authorization: `Bearer ${key}`, 'X-Forwarded-For': ip }).send({ query });
    return { acme, key, ask };
  }

  it('the 61st visitor of a help center is answered; one visitor meets its own limit, the next visitor does not', async () => {
    const { ask } = await freeHelpCenter();
    for (let i = 1; i <= 61; i++) {
      const res = await ask(`198.51.100.${i}`);
      expect(res.status, `visitor ${i}: ${res.text.slice(0, 120)}`).toBe(200);
    }
    const perVisitor = PUBLIC_BUDGETS.free.visitorPerHour!;
    // Visitor .1 has asked once already.
    for (let i = 1; i < perVisitor; i++) await ask('198.51.100.1').expect(200);
    const refused = await ask('198.51.100.1').expect(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', limit: perVisitor });
    await ask('198.51.100.200').expect(200);
  });

  it("no public traffic refuses the tenant's secret key: 150 public questions on Free, and the server key still searches", async () => {
    const { acme, ask } = await freeHelpCenter();
    // Free allows 100 queries a day to the tenant's server keys; public questions are counted apart.
    for (let i = 0; i < 150; i++) await ask(`203.0.113.${i % 250}`, `refunds ${i}`).expect(200);
    const served = await request(app).post('/api/search').set(acme.auth).send({ query: 'refunds' }).expect(200);
    expect(served.headers['ratelimit-limit']).toBe('60');
    // The site's own budget is the bound for public traffic (lowered here through quotas_json).
    await engineInternals(engine).store.tenants.update(acme.tenant.id, { quotas: { publicSitePerHour: 152 } } as never);
    await ask('192.0.2.1').expect(200);
    await ask('192.0.2.2').expect(200);
    await ask('192.0.2.3').expect(429);
    await request(app).post('/api/search').set(acme.auth).send({ query: 'refunds' }).expect(200);
  });

  it('help-center pages and searches are limited per address, and a repeated search is answered from the cache', async () => {
    await freeHelpCenter();
    const search = vi.spyOn(engine.helpCenter, 'search');
    // One instant: the per-address count is kept in one-minute windows.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-01-01T10:00:05Z'));
    try {
      const view = (ip: string, path = '/acme/search?q=refunds') => request(app).get(path).set({ Host: HELP, 'X-Forwarded-For': ip });
      for (let i = 0; i < HELP_PAGE_VIEWS_PER_ADDRESS_PER_MINUTE; i++) await view('198.51.100.9').expect(200);
      expect(search.mock.calls.length).toBe(1);
      const refused = await view('198.51.100.9', '/acme/').expect(429);
      expect(Number(refused.headers['retry-after'])).toBe(55);
      expect(refused.headers['cache-control']).toBe('no-store');
      await view('198.51.100.10', '/acme/').expect(200);
      // The next minute the address is served again.
      vi.setSystemTime(new Date('2031-01-01T10:01:00Z'));
      await view('198.51.100.9', '/acme/').expect(200);
    } finally {
      vi.useRealTimers();
    }
  });
});
