import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { makeTenant, setup } from './helpers.js';

type Entry = { seq: number; type: string; actor: string; actorKind: string; subjectId: string | null; before: Record<string, unknown> | null; after: Record<string, unknown> | null; hash: string; prevHash: string | null };

describe('GET /api/audit', () => {
  it('lists who changed what newest first, with filters and a cursor, per tenant', async () => {
    const { app, acme, globex, engine } = await setup();
    const created = await request(app).post('/api/docs').set(acme.auth).send({ title: 'Returns', contentMd: '# Returns\n\nWithin 30 days.' }).expect(201);
    const id = created.body.id;
    await request(app).patch(`/api/docs/${id}`).set(acme.auth).send({ contentMd: '# Returns\n\nWithin 14 days.' }).expect(200);
    await request(app).patch(`/api/docs/${id}`).set(acme.auth).send({ title: 'Return policy' }).expect(200);
    await request(app).delete(`/api/docs/${id}`).set(acme.auth).expect(204);
    await request(app).patch('/api/privacy').set(acme.auth).send({ retentionDays: 90 }).expect(200);
    await request(app).post('/api/docs').set(globex.auth).send({ title: 'Other', contentMd: 'other tenant' }).expect(201);

    const all = (await request(app).get('/api/audit').set(acme.auth).expect(200)).body;
    const types = all.data.map((e: Entry) => e.type);
    expect(types).toEqual(['workspace.privacy_updated', 'document.deleted', 'document.updated', 'document.updated', 'document.created', 'api_key.created']);
    const [, deleted, retitled, edited, added] = all.data as Entry[];
    const keyId = (await engine.apiKeys.list(acme.tenant.id))[0]!.id;
    expect(added).toMatchObject({ actor: keyId, actorKind: 'key', subjectId: id, before: null, after: { title: 'Returns' } });
    // The content version changes with the Markdown, not with a new title.
    expect(edited!.before!.version).not.toBe(edited!.after!.version);
    expect(retitled).toMatchObject({ before: { title: 'Returns' }, after: { title: 'Return policy', version: edited!.after!.version } });
    expect(deleted).toMatchObject({ after: null, before: { title: 'Return policy' } });
    expect(all.data.map((e: Entry) => e.seq)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(JSON.stringify(all)).not.toContain('other tenant');

    const page1 = (await request(app).get('/api/audit').query({ limit: 2 }).set(acme.auth).expect(200)).body;
    expect(page1.data.map((e: Entry) => e.seq)).toEqual([6, 5]);
    expect(page1.hasMore).toBe(true);
    const page2 = (await request(app).get('/api/audit').query({ limit: 2, cursor: page1.nextCursor }).set(acme.auth).expect(200)).body;
    expect(page2.data.map((e: Entry) => e.seq)).toEqual([4, 3]);
    const byType = (await request(app).get('/api/audit').query({ type: 'document.updated' }).set(acme.auth).expect(200)).body;
    expect(byType.data.map((e: Entry) => e.seq)).toEqual([4, 3]);
    const bySubject = (await request(app).get('/api/audit').query({ subjectId: id, actor: keyId }).set(acme.auth).expect(200)).body;
    expect(bySubject.data).toHaveLength(4);

    const bad = await request(app).get('/api/audit').query({ cursor: 'not-a-cursor' }).set(acme.auth).expect(400);
    expect(bad.body.code).toBe('invalid_request');
    await request(app).get('/api/audit').query({ since: 'yesterday' }).set(acme.auth).expect(400);
  });

  it('is for admins only', async () => {
    const { app, engine } = await setup();
    const reader = await makeTenant(engine, 'reader', ['read', 'write']);
    const res = await request(app).get('/api/audit').set(reader.auth).expect(403);
    expect(res.body.code).toBe('forbidden');
    await request(app).get('/api/audit/export').set(reader.auth).expect(403);
  });

  it('exports the chain as JSON lines, oldest first, each entry naming the hash before it', async () => {
    const { app, acme } = await setup();
    for (const title of ['One', 'Two', 'Three']) await request(app).post('/api/docs').set(acme.auth).send({ title, contentMd: `# ${title}` }).expect(201);
    const res = await request(app).get('/api/audit/export').set(acme.auth).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString('utf8')));
      r.on('end', () => done(null, text));
    }).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = (res.body as string).trimEnd().split('\n').map((l) => JSON.parse(l) as Entry);
    expect(lines.map((e) => [e.seq, e.type])).toEqual([
      [1, 'api_key.created'],
      [2, 'document.created'],
      [3, 'document.created'],
      [4, 'document.created'],
    ]);
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.prevHash).toBe(lines[i - 1]!.hash);
  });
});
