import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, LOGIN_THROTTLE, MAX_CHAT_STREAMS_PER_KEY, MAX_CHAT_STREAMS_PER_VISITOR, parseHelpHost, type Clock, type Engine, type Generator, type Logger } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { convertUpload, createPanyaApp, parseTrustProxy } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const PASSWORD = 'correct horse battery';
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

function track(engine: Engine): Engine {
  engines.push(engine);
  return engine;
}

/** A clock the test moves. */
function movableClock(start = Date.parse('2031-03-04T10:00:00Z')) {
  let now = start;
  const clock: Clock = { now: () => new Date(now) };
  return { clock, advance: (ms: number) => (now += ms) };
}

async function withUser(options: { clock?: Clock; path?: string } = {}) {
  const engine = track(createEngine({ store: openSqliteStore({ path: options.path ?? ':memory:' }), ...(options.clock ? { clock: options.clock } : {}) }));
  const app = createPanyaApp(engine, { trustProxy: true });
  const acme = await makeTenant(engine, 'acme');
  (await engine.users.createUser({ email: 'owner@acme.test', password: PASSWORD, tenantSlug: 'acme', role: 'owner' }))._unsafeUnwrap();
  return { engine, app, acme };
}

const login = (app: ReturnType<typeof createPanyaApp>, password: string, email = 'owner@acme.test', ip = '203.0.113.9') =>
  request(app).post('/api/auth/login').set('X-Forwarded-For', ip).send({ email, password });

describe('login throttling', () => {
  it('refuses an account after its failures with 429, Retry-After and an audit event, also for the right password', async () => {
    const { engine, app, acme } = await withUser();
    for (let i = 0; i < LOGIN_THROTTLE.account[0].failures; i++) await login(app, `wrong password ${i}`).expect(401);
    const refused = await login(app, PASSWORD).expect(429).expect('Content-Type', /application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(300);
    expect(refused.headers['set-cookie']).toBeUndefined();
    const events = await engineInternals(engine).store.audit.list(acme.tenant.id, { type: 'auth.login_throttled' });
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ scope: 'account' });
  });

  it('a correct sign-in clears the account\'s failures', async () => {
    const { app } = await withUser();
    // Without the reset the second round's second failure would be the account's sixth.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LOGIN_THROTTLE.account[0].failures - 1; i++) await login(app, 'wrong password').expect(401);
      await login(app, PASSWORD).expect(200);
    }
  });

  it('admits exactly the allowed failures among 60 concurrent guesses', async () => {
    const { app } = await withUser();
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => login(app, `guess ${i}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_THROTTLE.account[0].failures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - LOGIN_THROTTLE.account[0].failures);
  });

  it('backs off: each wider window makes the wait longer', async () => {
    const { clock, advance } = movableClock();
    const { app } = await withUser({ clock });
    const waits: number[] = [];
    let failures = 0;
    while (waits.length < 10 && !(waits.at(-1)! > 3600)) {
      let refused;
      for (;;) {
        const res = await login(app, 'wrong password');
        if (res.status === 429) {
          refused = res;
          break;
        }
        expect(res.status).toBe(401);
        failures++;
      }
      waits.push(Number(refused.headers['retry-after']));
      advance(waits.at(-1)! * 1000);
    }
    expect(waits[0]).toBeLessThanOrEqual(300);
    expect(waits[1]).toBeGreaterThan(300); // the hour window
    expect(Math.max(...waits)).toBeGreaterThan(3600); // then the day window
    // Within the day window no more failures than it allows were ever checked.
    expect(failures).toBeLessThanOrEqual(LOGIN_THROTTLE.account[2].failures);
  });

  it('behind a proxy (PANYA_TRUST_PROXY), keys on the real client: failures from one address never lock the owner out from another', async () => {
    const engine = track(createEngine({ store: openSqliteStore({ path: ':memory:' }) }));
    // One proxy in front; supertest connects from 127.0.0.1, the proxy's own address.
    const app = createPanyaApp(engine, { trustProxy: parseTrustProxy('1') });
    await makeTenant(engine, 'acme');
    (await engine.users.createUser({ email: 'owner@acme.test', password: PASSWORD, tenantSlug: 'acme', role: 'owner' }))._unsafeUnwrap();
    (await engine.users.createUser({ email: 'other@acme.test', password: PASSWORD, tenantSlug: 'acme', role: 'admin' }))._unsafeUnwrap();
    // An attacker at one address spends the account's failures.
    for (let i = 0; i < LOGIN_THROTTLE.account[0].failures; i++) await login(app, `guess ${i}`, 'owner@acme.test', '198.51.100.66').expect(401);
    await login(app, PASSWORD, 'owner@acme.test', '198.51.100.66').expect(429);
    // The owner, from their own address, signs in.
    await login(app, PASSWORD, 'owner@acme.test', '203.0.113.5').expect(200);
    // 20 failures from behind the same proxy lock out no one else: every other user comes from elsewhere.
    for (let i = 0; i < LOGIN_THROTTLE.address[0].failures; i++) await login(app, 'nope', `user${i}@else.test`, '198.51.100.67').expect(401);
    await login(app, PASSWORD, 'other@acme.test', '203.0.113.6').expect(200);
    // Without the setting every client is the proxy: the same 20 failures lock every user out.
    const direct = createPanyaApp(engine);
    for (let i = 0; i < LOGIN_THROTTLE.address[0].failures; i++) await login(direct, 'nope', `x${i}@else.test`, '198.51.100.68').expect(401);
    await login(direct, PASSWORD, 'other@acme.test', '203.0.113.7').expect(429);
  });

  it('PANYA_TRUST_PROXY takes hops or addresses and CIDR ranges; anything else is refused naming the setting', () => {
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,loopback')).toEqual(['10.0.0.0/8', '127.0.0.1', 'loopback']);
    for (const bad of ['true', 'proxy.example', '10.0.0.0/99', '', '1000']) expect(() => parseTrustProxy(bad)).toThrow(/^PANYA_TRUST_PROXY: /);
  });

  it('throttles one address guessing many accounts, and holds across nodes sharing the database', async () => {
    const dir = `/tmp/panya-throttle-${process.pid}-${Date.now()}.db`;
    // One instant for both nodes: counters are fixed windows, and guesses straddling a window's end would split the count.
    const clock = { now: () => new Date('2030-01-01T00:02:00.000Z') };
    const a = await withUser({ path: dir, clock });
    const b = track(createEngine({ store: openSqliteStore({ path: dir }), clock }));
    const appB = createPanyaApp(b, { trustProxy: true });
    const limit = LOGIN_THROTTLE.address[0].failures;
    for (let i = 0; i < limit; i++) await login(i % 2 ? a.app : appB, 'nope', `user${i}@else.test`, '198.51.100.7').expect(401);
    const refused = await login(appB, 'nope', 'fresh@else.test', '198.51.100.7').expect(429);
    expect(refused.body.detail).toMatch(/this address/);
    // Another address is not affected.
    await login(a.app, 'nope', 'fresh@else.test', '198.51.100.8').expect(401);
  });
});

describe('plain text in answers', () => {
  const hostile = {
    title: 'Refunds <img src=x onerror=alert(1)>',
    contentMd:
      '# Refunds <b onmouseover=alert(2)>now</b>\n\nRefunds arrive in 7 days. <img src=x onerror=alert(3)> Read [the policy](javascript:alert(4)) and ![logo](data:text/html,alert) or <a href="javascript:alert(5)">this</a>.',
  };

  it('search text and title, citation snippets and MCP text carry no markup or link target', async () => {
    const engine = track(createEngine({ store: openSqliteStore({ path: ':memory:' }) }));
    const app = createPanyaApp(engine);
    const acme = await makeTenant(engine, 'acme');
    await request(app).post('/api/docs?wait=true').set(acme.auth).send(hostile).expect(201);
    const search = await request(app).post('/api/search').set(acme.auth).send({ query: 'refunds policy' }).expect(200);
    const answer = await request(app).post('/api/answer').set(acme.auth).send({ query: 'when do refunds arrive?' }).expect(200);
    const mcp = await request(app)
      .post('/api/mcp')
      .set({ ...acme.auth, Accept: 'application/json, text/event-stream' })
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'svc_search', arguments: { query: 'refunds policy' } } })
      .expect(200);
    expect(search.body.results.length).toBeGreaterThan(0);
    expect(answer.body.citations.length).toBeGreaterThan(0);
    const shown = [
      ...search.body.results.flatMap((r: { text: string; title: string; headingPath: string[] }) => [r.text, r.title, ...r.headingPath]),
      ...answer.body.citations.flatMap((c: { snippet: string; title: string }) => [c.snippet, c.title]),
      ...mcp.body.result.content.map((c: { text: string }) => c.text),
    ];
    for (const text of shown) {
      expect(text).not.toMatch(/<[a-z/!]/i);
      expect(text).not.toMatch(/javascript:|data:text/i);
    }
    expect(search.body.results[0].text).toMatch(/Read the policy and logo or this\./);
  });

  it('the HTML upload converter keeps only http(s) link and image targets', async () => {
    const html = '<h1>T</h1><p><a href="javascript:alert(1)">bad</a> <a href="https://ok.example/a">good</a> <a href="data:text/html,x">data</a> <img src="javascript:x" alt="pic"> <img src="https://ok.example/i.png" alt="fine"></p>';
    const out = await convertUpload({ filename: 'page.html', bytes: new TextEncoder().encode(html) });
    expect(out.contentMd).not.toMatch(/javascript:|data:text/);
    expect(out.contentMd).toContain('[good](https://ok.example/a)');
    expect(out.contentMd).toContain('![fine](https://ok.example/i.png)');
    expect(out.contentMd).toMatch(/bad/);
  });
});

describe('concurrent chat streams', () => {
  it(`caps open streams per key at ${MAX_CHAT_STREAMS_PER_KEY} (429), and frees a slot when a stream ends`, async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: Generator = {
      specificationVersion: 'v1',
      id: 'slow',
      async *generate() {
        await gate;
        yield { type: 'delta', text: 'done' };
        yield { type: 'done', usage: { inputTokens: 1, outputTokens: 1 } };
      },
    };
    const engine = track(createEngine({ store: openSqliteStore({ path: ':memory:' }), generator: slow }));
    const app = createPanyaApp(engine);
    const acme = await makeTenant(engine, 'acme');
    const other = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/chat`;
    const chat = (key: string) => fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'hello' }) });
    try {
      const open = await Promise.all(Array.from({ length: MAX_CHAT_STREAMS_PER_KEY }, () => chat(acme.key)));
      expect(open.map((r) => r.status)).toEqual(Array(MAX_CHAT_STREAMS_PER_KEY).fill(200));
      const refused = await chat(acme.key);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      const otherKey = await chat(other); // another key of the tenant still gets one
      expect(otherKey.status).toBe(200);
      release();
      await Promise.all([...open, otherKey].map((r) => r.text()));
      const again = await chat(acme.key);
      expect(again.status).toBe(200);
      await again.text();
    } finally {
      release();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('public surfaces: slots per visitor', () => {
  it(`one widget visitor holds at most ${MAX_CHAT_STREAMS_PER_VISITOR} chat streams of the key; other visitors still get theirs`, async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: Generator = {
      specificationVersion: 'v1',
      id: 'slow',
      async *generate() {
        await gate;
        yield { type: 'delta', text: 'done' };
        yield { type: 'done', usage: { inputTokens: 1, outputTokens: 1 } };
      },
    };
    const engine = track(createEngine({ store: openSqliteStore({ path: ':memory:' }), generator: slow }));
    const app = createPanyaApp(engine, { trustProxy: 1 });
    const acme = await makeTenant(engine, 'acme');
    await request(app).patch('/api/tenant/settings').set(acme.auth).send({ allowedOrigins: ['https://shop.example'] }).expect(200);
    const widgetKey = (await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/chat`;
    const chat = (ip: string, visitor?: string) =>
      fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${widgetKey}`, 'Content-Type': 'application/json', Origin: 'https://shop.example', 'X-Forwarded-For': ip, ...(visitor ? { 'X-Panya-Visitor': visitor } : {}) }, body: JSON.stringify({ query: 'hello' }) });
    try {
      const mine = await Promise.all(Array.from({ length: MAX_CHAT_STREAMS_PER_VISITOR }, () => chat('198.51.100.1', 'v-1')));
      expect(mine.map((r) => r.status)).toEqual(Array(MAX_CHAT_STREAMS_PER_VISITOR).fill(200));
      const refused = await chat('198.51.100.1', 'v-1');
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/one visitor/);
      // Another visitor behind the same address (its own id), and one from elsewhere, are served.
      const sameOffice = await chat('198.51.100.1', 'v-2');
      const elsewhere = await chat('198.51.100.2');
      expect([sameOffice.status, elsewhere.status]).toEqual([200, 200]);
      release();
      await Promise.all([...mine, sameOffice, elsewhere].map((r) => r.text()));
    } finally {
      release();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('cookie writes, headers and policies', () => {
  it('logout needs X-Requested-With like every cookie write; login takes JSON only', async () => {
    const { app } = await withUser();
    const agent = request.agent(app);
    await agent.post('/api/auth/login').type('form').send({ email: 'owner@acme.test', password: PASSWORD }).expect(415);
    await agent.post('/api/auth/login').send({ email: 'owner@acme.test', password: PASSWORD }).expect(200);
    await agent.post('/api/auth/logout').expect(403);
    await agent.get('/c/acme/api/docs').expect(200);
    await agent.post('/api/auth/logout').set('X-Requested-With', 'panya').expect(204);
    await agent.get('/c/acme/api/docs').expect(401);
  });

  it('nosniff on every response, no-store on tenant data, a strict policy on the admin app', async () => {
    const { app, acme } = await withUser();
    const responses = await Promise.all([
      request(app).get('/healthz'),
      request(app).get('/api/openapi.json'),
      request(app).get('/nowhere'),
      request(app).get('/api/docs').set(acme.auth),
      request(app).get('/c/acme/api/docs').set(acme.auth),
      request(app).get('/api/docs'),
      request(app).post('/api/search').set(acme.auth).send({}),
      request(app).get('/admin/'),
    ]);
    for (const res of responses) expect(res.headers['x-content-type-options']).toBe('nosniff');
    for (const res of responses.slice(3, 7)) expect(res.headers['cache-control']).toBe('no-store');
    const csp = responses[7]!.headers['content-security-policy'] as string;
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('the help center allows its own stylesheet by hash and only its own ask-box script, nothing inline', async () => {
    const engine = track(createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost('help.panya.example') }));
    const app = createPanyaApp(engine);
    const acme = await makeTenant(engine, 'acme');
    await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title: 'Hello', contentMd: 'Hi <style>body{display:none}</style>', publicSurfaces: ['help_center'] }).expect(201);
    const home = await request(app).get('/acme/').set('Host', 'help.panya.example').expect(200);
    const csp = home.headers['content-security-policy'] as string;
    expect(csp).not.toMatch(/unsafe-inline/);
    expect(csp).toMatch(/script-src 'self'; connect-src 'self';/);
    expect(csp).toMatch(/default-src 'none'/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(home.text)![1]!;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(home.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('secrets', () => {
  it('no key, password, session token or secret appears in the logs', async () => {
    const lines: string[] = [];
    const capture = (level: string) => (msg: string, data?: Record<string, unknown>) => void lines.push(`${level} ${msg} ${JSON.stringify(data ?? {})}`);
    const logger: Logger = { debug: capture('debug'), info: capture('info'), warn: capture('warn'), error: capture('error') };
    const engine = track(createEngine({ store: openSqliteStore({ path: ':memory:' }), logger }));
    const app = createPanyaApp(engine, { logger, cronSecret: 'cron-secret-value-0123456789' });
    const acme = await makeTenant(engine, 'acme');
    (await engine.users.createUser({ email: 'owner@acme.test', password: PASSWORD, tenantSlug: 'acme', role: 'owner' }))._unsafeUnwrap();
    const bogus = `${acme.key.slice(0, -4)}zzzz`;
    const agent = request.agent(app);
    const signedIn = await agent.post('/api/auth/login').send({ email: 'owner@acme.test', password: PASSWORD }).expect(200);
    const cookie = signedIn.headers['set-cookie']![0]!.split(';')[0]!.split('=')[1]!;
    for (let i = 0; i < 6; i++) await request(app).post('/api/auth/login').send({ email: 'owner@acme.test', password: `${PASSWORD}-wrong` });
    await request(app).post('/api/docs').set(acme.auth).send({ title: 'T', contentMd: 'x' }).expect(201);
    await request(app).get('/api/docs').set({ Authorization: `Bearer ${bogus}` }).expect(401);
    await request(app).post('/api/search').set(acme.auth).send({ query: 42 }).expect(400);
    await request(app).post('/api/mcp').set({ Authorization: `Bearer ${bogus}`, Accept: 'application/json, text/event-stream' }).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await request(app).post('/api/cron/usage-report').set({ Authorization: 'Bearer cron-secret-value-0123456789' });
    await request(app).post('/api/cron/usage-report').set({ Authorization: 'Bearer cron-secret-value-wrong' });
    await agent.get('/c/acme/api/docs').expect(200);
    expect(lines.length).toBeGreaterThan(5);
    const log = lines.join('\n');
    for (const secret of [acme.key, acme.key.slice(9), bogus, PASSWORD, decodeURIComponent(cookie), 'cron-secret-value']) expect(log).not.toContain(secret);
  });

  it('compares secrets in constant time: no ===/!== on a secret, hash, signature or token in the sources', () => {
    const root = join(__dirname, '../..');
    const offending: string[] = [];
    const name = String.raw`\b[\w.]*(?:secret|signature|signatureheader|passwordhash|secrethash|token)\b`;
    const suspicious = new RegExp(`${name}\\s*[!=]==|[!=]==\\s*${name}`, 'i');
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    for (const pkg of readdirSync(root)) {
      let files: string[] = [];
      try {
        // Test fakes (packages' `testing/` folders) stand in for third parties and compare freely.
        files = walk(join(root, pkg, 'src')).filter((f) => !f.includes('/testing/'));
      } catch {
        continue;
      }
      for (const file of files) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            // Presence checks (=== undefined / null / '') compare no secret's value.
            const stripped = line.replace(/[!=]==\s*(undefined|null|''|""|\d+)\b/g, '').replace(/\b(undefined|null)\s*[!=]==/g, '');
            if (suspicious.test(stripped) && !/typeof\s/.test(stripped)) offending.push(`${file.slice(root.length)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(offending).toEqual([]);
  });
});
