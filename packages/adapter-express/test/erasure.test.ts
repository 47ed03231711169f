import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { apiRoutes, exampleOf, recordFigures } from './security/harness.js';
import { makeEngine, makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;
beforeEach(async () => {
  engine = await makeEngine();
  app = createPanyaApp(engine);
});
afterEach(() => engine.close());

/** A signed-in member of the tenant, with the CSRF header sessions need. */
async function signedIn(slug: string, role: 'owner' | 'admin', workspaceSlug?: string) {
  const email = `${role}-${workspaceSlug ?? 'all'}@${slug}.test`;
  const password = 'correct horse battery';
  (await engine.users.createUser({ email, password, tenantSlug: slug, role, ...(workspaceSlug ? { workspaceSlug } : {}) }))._unsafeUnwrap();
  const agent = request.agent(app);
  await agent.post('/api/auth/login').send({ email, password }).expect(200);
  return agent;
}

describe('DELETE /api/tenant', () => {
  it('only a signed-in owner erases, with the slug confirmed; the tenant is then gone with its data', async () => {
    const acme = await makeTenant(engine, 'acme');
    const globex = await makeTenant(engine, 'globex');
    await request(app).post('/api/docs').set(acme.auth).send({ title: 'Refunds', contentMd: 'Refunds take 14 days.' }).expect(201);
    const kept = await request(app).post('/api/docs').set(globex.auth).send({ title: 'Globex', contentMd: 'Globex doc.' }).expect(201);

    // An admin key cannot, nor can a signed-in admin.
    expect((await request(app).delete('/api/tenant').set(acme.auth).send({ confirm: 'acme' }).expect(403)).body.code).toBe('forbidden');
    const admin = await signedIn('acme', 'admin');
    await admin.delete('/c/acme/api/tenant').set('X-Requested-With', 'fetch').send({ confirm: 'acme' }).expect(403);
    const owner = await signedIn('acme', 'owner');
    // The slug must be repeated exactly.
    const unconfirmed = await owner.delete('/c/acme/api/tenant').set('X-Requested-With', 'fetch').send({ confirm: 'acme-typo' }).expect(400);
    expect(unconfirmed.body.errors).toEqual([expect.objectContaining({ path: 'confirm' })]);
    expect(await engineInternals(engine).store.tenants.getBySlug('acme')).not.toBeNull();

    const done = await owner.delete('/c/acme/api/tenant').set('X-Requested-With', 'fetch').send({ confirm: 'acme' }).expect(200);
    expect(done.body).toMatchObject({ slug: 'acme', hostnames: [], deleted: expect.objectContaining({ tenants: 1, documents: 1, api_keys: 1, memberships: 2 }) });
    expect(await engineInternals(engine).store.tenants.getBySlug('acme')).toBeNull();
    expect(await engineInternals(engine).store.tombstones.getBySlug('acme')).toMatchObject({ slug: 'acme', hostnames: [] });
    // The key and the session died with the tenant; the slug's addresses answer 410.
    await request(app).get('/api/docs').set(acme.auth).expect(401);
    const gone = await owner.get('/c/acme/api/docs').expect(410);
    expect(gone.headers['cache-control']).toBe('no-store');
    // The other tenant is untouched.
    await request(app).get(`/api/docs/${kept.body.id}`).set(globex.auth).expect(200);
  });
});

describe('erasure leaves nothing of the tenant behind', () => {
  const MARKER = 'zqvmarkererased';
  const KEPT = 'zqvmarkerkept';
  const PASSWORD = 'correct horse battery';

  /** Every string the generated example holds, marked: what the route stores carries the marker. */
  function marked(value: unknown, marker: string): unknown {
    if (typeof value === 'string') {
      if (/^x+$/.test(value)) return marker;
      if (value === 'someone@example.com') return `${marker}@example.com`;
      if (value.startsWith('https://example.com/')) return `https://example.com/${marker}`;
      return value;
    }
    if (Array.isArray(value)) return value.map((v) => marked(v, marker));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, marked(v, marker)]));
    return value;
  }

  /** Occurrences of `marker` in every file under `dir` (the database, its WAL, counters, vector graphs). */
  function occurrences(dir: string, marker: string): Record<string, number> {
    const found: Record<string, number> = {};
    const needle = Buffer.from(marker);
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      const path = join(dir, name);
      if (!statSync(path).isFile()) continue;
      const bytes = readFileSync(path);
      let n = 0;
      for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) n++;
      if (n > 0) found[name] = n;
    }
    return found;
  }

  it('plants a marker in every record type; after DELETE /api/tenant no file of the data directory holds it, members and their counters are gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'panya-erasure-'));
    const store = openSqliteStore({ path: join(dir, 'panya.db'), vectorIndex: { mode: 'hnsw', threshold: 1 } });
    const e = createEngine({ store });
    const a = createPanyaApp(e);
    try {
      const routes = (await apiRoutes(a)).filter((r) => r.method === 'POST' && r.body && !/\/(tenant$|auth|cron|billing|mcp|dify|edge|ops|connectors\/[^/]+\/webhook)/.test(r.path));
      async function plant(slug: string, marker: string) {
        const t = await makeTenant(e, slug);
        const call = (path: string, body: unknown, key = `${marker}-${Math.random()}`) =>
          request(a).post(`/c/${slug}/api${path}`).set(t.auth).set('Idempotency-Key', key).send(body as object);
        await request(a).patch(`/api/workspaces/${t.defaultWorkspace.id}`).set(t.auth).send({ name: `${marker} desk` }).expect(200);
        await call('/docs?wait=true', { title: `${marker} refunds`, contentMd: `# ${marker}\n\n${marker} refunds take 7 days.`, url: `https://example.com/${marker}`, metadata: { note: marker }, publicSurfaces: ['help_center'] }).expect(201);
        await call('/docs?wait=true', { title: `${marker} returns`, contentMd: `${marker} returns are free.` }).expect(201);
        await call('/chat', { query: `${marker} refunds?` }).expect(200);
        await call('/answer', { query: `${marker} refunds?` }).expect(200);
        await call('/search', { query: `${marker} refunds` }).expect(200);
        for (let pass = 0; pass < 2; pass++) {
          for (const route of routes.filter((r) => r.params.every((p) => p.in !== 'path'))) await call(route.path.slice(4), marked(exampleOf(route.body), marker));
        }
        // A member of this tenant only, one who also belongs to the other tenant, and failed sign-ins keyed by e-mail.
        (await e.users.createUser({ email: `owner-${marker}@${slug}.test`, password: PASSWORD, tenantSlug: slug, role: 'owner' }))._unsafeUnwrap();
        await request(a).post('/api/auth/login').send({ email: `owner-${marker}@${slug}.test`, password: 'wrong password!' }).expect(401);
        // The workspace's vector graph is written to a file of its own.
        const built = await (store as unknown as { vectors: { build(s: { tenantId: string; workspaceId: string }): Promise<{ ok: boolean }> } }).vectors.build({ tenantId: t.tenant.id, workspaceId: t.defaultWorkspace.id });
        expect(built.ok).toBe(true);
        return t;
      }
      const acme = await plant('acme', MARKER);
      await plant('globex', KEPT);
      (await e.users.createUser({ email: 'both@shared.test', password: PASSWORD, tenantSlug: 'acme', role: 'admin' }))._unsafeUnwrap();
      (await e.users.createUser({ email: 'both@shared.test', password: PASSWORD, tenantSlug: 'globex', role: 'admin' }))._unsafeUnwrap();
      const graphs = () => readdirSync(join(dir, 'panya.db.vectors')).filter((f) => f.startsWith(encodeURIComponent(acme.defaultWorkspace.id)));
      const graphsBefore = graphs().length;
      expect(graphsBefore).toBeGreaterThan(0);
      const before = occurrences(dir, MARKER);
      expect(Object.values(before).reduce((x, y) => x + y, 0)).toBeGreaterThan(20);

      const owner = request.agent(a);
      await owner.post('/api/auth/login').send({ email: `owner-${MARKER}@acme.test`, password: PASSWORD }).expect(200);
      const erased = await owner.delete('/c/acme/api/tenant').set('X-Requested-With', 'fetch').send({ confirm: 'acme' }).expect(200);
      expect(erased.body.deleted).toMatchObject({ users: 1, rate_counters: expect.any(Number), vector_graph_files: expect.any(Number) });

      const after = occurrences(dir, MARKER);
      expect(graphs()).toEqual([]);
      expect(after).toEqual({});
      // The grep finds what is still there: the other tenant's marker.
      expect(Object.keys(occurrences(dir, KEPT)).length).toBeGreaterThan(0);
      // The owner's account is gone (it belonged to no other tenant); the shared member keeps theirs.
      await request(a).post('/api/auth/login').send({ email: `owner-${MARKER}@acme.test`, password: PASSWORD }).expect(401);
      await request(a).post('/api/auth/login').send({ email: 'both@shared.test', password: PASSWORD }).expect(200);
      const total = (found: Record<string, number>) => Object.values(found).reduce((x, y) => x + y, 0);
      recordFigures('erasure', [
        `- marker sent through ${routes.length + 5} routes: **${total(before)}** copies in the data directory before erasure (${Object.entries(before).map(([f, n]) => `${f} ${n}`).join(', ')}), ${graphsBefore} vector graph file(s)`,
        `- after \`DELETE /api/tenant\`: **${total(after)}** copies in any file, **${graphs().length}** graph files; rows removed: ${Object.entries(erased.body.deleted as Record<string, number>).map(([t, n]) => `${t} ${n}`).join(', ')}`,
      ]);
    } finally {
      await e.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
