import { PDFDocument, StandardFonts } from 'pdf-lib';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Embedder, HashEmbedder, tokenize } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant, setup } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

type Ctx = Awaited<ReturnType<typeof setup>>;
let t: Ctx;
beforeEach(async () => {
  t = await setup();
});
afterEach(async () => {
  await t.engine.close();
});

const docs = [
  { title: 'Returns and refunds', contentMd: '# Returns and refunds\n\n## Refund timing\n\nRefunds go back to the original payment method within 7 business days.\n\n## Conditions\n\nItems must be unused and returned within 14 days.' },
  { title: 'Shipping times', contentMd: '# Shipping times\n\nBangkok orders arrive in 1-2 business days. Provinces take 2-4 days.' },
  { title: 'นโยบายการคืนเงิน', contentMd: '# นโยบายการคืนเงิน\n\nลูกค้าสามารถขอคืนเงินได้ภายใน 14 วันหลังได้รับสินค้า โดยเงินจะถูกโอนกลับภายใน 7 วันทำการ' },
  { title: 'การชำระเงินด้วยพร้อมเพย์', contentMd: '# การชำระเงินด้วยพร้อมเพย์\n\nสแกนคิวอาร์โค้ดพร้อมเพย์เพื่อชำระเงิน คิวอาร์โค้ดมีอายุ 15 นาที' },
];

async function seed(auth: Record<string, string>, base = '/api') {
  const ids: string[] = [];
  for (const d of docs) ids.push((await request(t.app).post(`${base}/docs?wait=true`).set(auth).send(d).expect(201)).body.id);
  return ids;
}

describe('POST /api/search', () => {
  it('indexes on create (?wait=true) and returns ranked chunks in the documented shape', async () => {
    const [refunds] = await seed(t.acme.auth);
    const doc = await request(t.app).get(`/api/docs/${refunds}`).set(t.acme.auth).expect(200);
    expect(doc.body.status).toBe('indexed');
    const res = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'how long does a refund take?' }).expect(200);
    expect(typeof res.body.tookMs).toBe('number');
    const top = res.body.results[0];
    expect(Object.keys(top).sort()).toEqual(['chunkId', 'documentId', 'headingPath', 'lexicalRank', 'rank', 'score', 'semanticRank', 'text', 'title', 'url'].sort());
    expect(top).toMatchObject({ documentId: refunds, title: 'Returns and refunds', rank: 1 });
    expect(top.lexicalRank).toBeGreaterThanOrEqual(1);
    // The built-in hash embedder's channel is off by default; a request can turn it on.
    expect(top.semanticRank).toBeNull();
    const withVectors = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'how long does a refund take?', weights: { semantic: 1 } }).expect(200);
    expect(withVectors.body.results[0].semanticRank).toBeGreaterThanOrEqual(1);
    expect(top.chunkId).toMatch(/^chk_/);
    expect(top.headingPath[0]).toBe('Returns and refunds');
    expect(top.text).toContain('7 business days');
    const scores = res.body.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(res.body.results.map((r: { rank: number }) => r.rank)).toEqual(scores.map((_: number, i: number) => i + 1));
  });

  it('finds a Thai word inside a Thai sentence', async () => {
    const ids = await seed(t.acme.auth);
    // "คืนเงิน" (refund) appears only inside unspaced Thai sentences.
    const refund = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'คืนเงิน' }).expect(200);
    expect(refund.body.results[0].documentId).toBe(ids[2]);
    const promptpay = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'คิวอาร์โค้ดหมดอายุเมื่อไหร่' }).expect(200);
    expect(promptpay.body.results[0].documentId).toBe(ids[3]);
  });

  it('honours topK and rejects bad input with 400 problem JSON', async () => {
    await seed(t.acme.auth);
    const one = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'refund', topK: 1 }).expect(200);
    expect(one.body.results).toHaveLength(1);
    for (const body of [{}, { query: '' }, { query: '   ' }, { query: 'x', topK: 0 }, { query: 'x', topK: 51 }, { query: 'x', topK: 2.5 }, { query: 5 }, { query: 'x', extra: 1 }]) {
      const res = await request(t.app).post('/api/search').set(t.acme.auth).send(body).expect(400);
      expect(res.body.code).toBe('invalid_request');
    }
  });

  // K2: hybrid retrieval fused by reciprocal rank fusion.
  it('a result carries both its lexical and its semantic rank, and the fused order is RRF over those ranks', async () => {
    await seed(t.acme.auth);
    const res = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'how long does a refund take?', weights: { lexical: 1, semantic: 1, trigram: 0 }, explain: true, topK: 10 }).expect(200);
    const results = res.body.results as { chunkId: string; score: number; lexicalRank: number | null; semanticRank: number | null }[];
    const k = res.body.explain.rrfK as number;
    expect(k).toBe(60);
    expect(results.some((r) => r.lexicalRank !== null && r.semanticRank !== null)).toBe(true);
    const rrf = (r: (typeof results)[number]) => (r.lexicalRank ? 1 / (k + r.lexicalRank) : 0) + (r.semanticRank ? 1 / (k + r.semanticRank) : 0);
    for (const r of results) expect(r.score).toBeCloseTo(rrf(r), 12);
    const expected = [...results].sort((a, b) => rrf(b) - rrf(a) || (a.chunkId < b.chunkId ? -1 : 1)).map((r) => r.chunkId);
    expect(results.map((r) => r.chunkId)).toEqual(expected);
  });

  it('lets a request switch channels off with weights', async () => {
    await seed(t.acme.auth);
    const lexicalOnly = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'refund', weights: { semantic: 0, trigram: 0 } }).expect(200);
    expect(lexicalOnly.body.results.every((r: { semanticRank: number | null }) => r.semanticRank === null)).toBe(true);
    const semanticOnly = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'refund', weights: { lexical: 0, trigram: 0, semantic: 1 } }).expect(200);
    expect(semanticOnly.body.results.every((r: { lexicalRank: number | null }) => r.lexicalRank === null)).toBe(true);
    expect(semanticOnly.body.results.length).toBeGreaterThan(0);
  });

  it('needs the read scope', async () => {
    const writeOnly = (await t.engine.apiKeys.create(t.acme.tenant.id, { scopes: ['write'] }))._unsafeUnwrap().key;
    await request(t.app).post('/api/search').set('Authorization', `Bearer ${writeOnly}`).send({ query: 'x' }).expect(403);
    await request(t.app).post('/api/search').send({ query: 'x' }).expect(401);
  });

  it('never returns another tenant’s or another workspace’s chunks', async () => {
    await seed(t.acme.auth);
    const other = await request(t.app).post('/api/search').set(t.globex.auth).send({ query: 'refund business days' }).expect(200);
    expect(other.body.results).toEqual([]);
    const { makeWorkspace } = await import('@panya/core/testing');
    await engineInternals(t.engine).store.workspaces.insert(makeWorkspace(t.acme.tenant.id, 'brand-b'));
    const ws = await request(t.app).post('/c/acme/_w/brand-b/api/search').set(t.acme.auth).send({ query: 'refund' }).expect(200);
    expect(ws.body.results).toEqual([]);
    const wsDoc = await request(t.app).post('/c/acme/_w/brand-b/api/docs?wait=true').set(t.acme.auth).send({ title: 'Brand B refunds', contentMd: 'Brand B refunds take 3 days.' }).expect(201);
    const inB = await request(t.app).post('/c/acme/_w/brand-b/api/search').set(t.acme.auth).send({ query: 'refund' }).expect(200);
    expect(inB.body.results.map((r: { documentId: string }) => r.documentId)).toEqual([wsDoc.body.id]);
    const inDefault = await request(t.app).post('/c/acme/api/search').set(t.acme.auth).send({ query: 'refund' }).expect(200);
    expect(inDefault.body.results.map((r: { documentId: string }) => r.documentId)).not.toContain(wsDoc.body.id);
  });

  it('shows legacy chunks (no workspace metadata) in every workspace of their own tenant only', async () => {
    const { makeWorkspace } = await import('@panya/core/testing');
    await engineInternals(t.engine).store.workspaces.insert(makeWorkspace(t.acme.tenant.id, 'brand-b'));
    const embedder = t.engine.embedder;
    await t.engine.ingest.ensureIndexInfo();
    const text = 'Legacy warranty: twelve months on electronics.';
    await engineInternals(t.engine).store.search.insertLegacyChunk(t.acme.tenant.id, 'doc_legacy', {
      id: 'chk_legacy', documentId: 'doc_legacy', ordinal: 0, title: 'Warranty', headingPath: ['Warranty'], text,
      lexicalTitle: tokenize('Warranty').join(' '), lexicalBody: tokenize(text).join(' '), vector: (await embedder.embedDocuments([text])).embeddings[0]!,
    });
    for (const path of ['/api/search', '/c/acme/api/search', '/c/acme/_w/brand-b/api/search']) {
      const res = await request(t.app).post(path).set(t.acme.auth).send({ query: 'warranty electronics' }).expect(200);
      expect(res.body.results.map((r: { chunkId: string }) => r.chunkId)).toContain('chk_legacy');
    }
    const other = await request(t.app).post('/api/search').set(t.globex.auth).send({ query: 'warranty electronics' }).expect(200);
    expect(other.body.results).toEqual([]);
  });

  it('removes a deleted document from search and re-indexes an edited one', async () => {
    const [refunds, shipping] = await seed(t.acme.auth);
    await request(t.app).delete(`/api/docs/${refunds}`).set(t.acme.auth).expect(204);
    const gone = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'refund original payment method' }).expect(200);
    expect(gone.body.results.map((r: { documentId: string }) => r.documentId)).not.toContain(refunds);
    await request(t.app).patch(`/api/docs/${shipping}?wait=true`).set(t.acme.auth).send({ contentMd: 'Parcels to Chiang Mai travel by overnight truck.' }).expect(200);
    const edited = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'overnight truck' }).expect(200);
    expect(edited.body.results[0].documentId).toBe(shipping);
    const old = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'Bangkok orders arrive', weights: { semantic: 0, trigram: 0 } }).expect(200);
    expect(old.body.results.map((r: { documentId: string }) => r.documentId)).not.toContain(shipping);
  });
});

/** An embedder that fails until switched on: a model server that is down. */
class FlakyEmbedder implements Embedder {
  readonly specificationVersion = 'v1';
  readonly inner = new HashEmbedder();
  readonly id = this.inner.id;
  readonly dimension = this.inner.dimension;
  readonly maxBatch = this.inner.maxBatch;
  up = false;
  async embedDocuments(texts: readonly string[]) {
    if (!this.up) throw new Error('embedding service unavailable (503)');
    return this.inner.embedDocuments(texts);
  }
  async embedQuery(text: string) {
    return this.inner.embedQuery(text);
  }
}

describe('ingest failures and reindex', () => {
  it('leaves a document failed with a readable error, then POST /reindex retries it and writes doc.reindex', async () => {
    const embedder = new FlakyEmbedder();
    const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), embedder });
    const app = createPanyaApp(engine);
    const acme = await makeTenant(engine, 'acme');
    const created = await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title: 'Warranty', contentMd: 'Warranty lasts twelve months.' }).expect(201);
    expect(created.body).toMatchObject({ status: 'failed', error: 'embedding service unavailable (503)' });
    expect((await request(app).post('/api/search').set(acme.auth).send({ query: 'warranty' })).body.results).toEqual([]);

    const readOnly = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    await request(app).post(`/api/docs/${created.body.id}/reindex`).set('Authorization', `Bearer ${readOnly}`).expect(403);
    await request(app).post(`/api/docs/${created.body.id}/reindex`).set((await makeTenant(engine, 'other')).auth).expect(404);

    embedder.up = true;
    const retried = await request(app).post(`/api/docs/${created.body.id}/reindex?wait=true`).set(acme.auth).expect(200);
    expect(retried.body).toMatchObject({ status: 'indexed', error: null });
    const found = await request(app).post('/api/search').set(acme.auth).send({ query: 'warranty' }).expect(200);
    expect(found.body.results[0].documentId).toBe(created.body.id);
    const audit = await engineInternals(engine).store.audit.list(acme.tenant.id, { type: 'doc.reindex' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ subjectId: created.body.id, data: { previousStatus: 'failed', previousError: 'embedding service unavailable (503)' } });
    await engine.close();
  });

  it('answers 202 and indexes in the background without ?wait', async () => {
    await t.engine.start();
    const created = await request(t.app).post('/api/docs').set(t.acme.auth).send(docs[1]).expect(201);
    expect(created.body.status).toBe('pending');
    const res = await request(t.app).post(`/api/docs/${created.body.id}/reindex`).set(t.acme.auth).expect(202);
    expect(res.body.status).toBe('pending');
    expect(await engineInternals(t.engine).worker.waitFor({ tenantId: t.acme.tenant.id, workspaceId: t.acme.defaultWorkspace.id }, created.body.id, 10_000)).toBe('indexed');
  });
});

describe('POST /api/docs/upload', () => {
  async function pdf(text: string): Promise<Buffer> {
    const doc = await PDFDocument.create();
    doc.setTitle('Warranty policy');
    const page = doc.addPage();
    page.drawText(text, { x: 50, y: 700, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    return Buffer.from(await doc.save());
  }

  it('converts markdown beside a long PDF conversion, not after it', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let p = 0; p < 2_000; p++) doc.addPage([200, 100]).drawText(`Page ${p + 1} of the catalogue.`, { x: 10, y: 50, size: 8, font });
    const big = Buffer.from(await doc.save());
    const finished: string[] = [];
    const slow = request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', big, 'catalogue.pdf').then((r) => (finished.push('pdf'), r.status));
    await new Promise((r) => setTimeout(r, 300)); // the PDF is being converted
    const quick = request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', Buffer.from('# Hours\n\nOpen 9 to 6.'), 'hours.md').then((r) => (finished.push('md'), r.status));
    expect(await Promise.all([slow, quick])).toEqual([201, 201]);
    expect(finished).toEqual(['md', 'pdf']);
  }, 60_000);

  it('turns .md, .txt, .html and .pdf files into searchable documents', async () => {
    const res = await request(t.app)
      .post('/api/docs/upload?wait=true')
      .set(t.acme.auth)
      .field('publicSurfaces', 'help_center')
      .attach('file', Buffer.from('# Gift cards\n\nGift cards never expire.'), 'gift-cards.md')
      .attach('file', Buffer.from('Store hours are 9 to 6.'), 'hours.txt')
      .attach('file', Buffer.from('<html><head><title>Loyalty</title><script>alert(1)</script></head><body><h1>Loyalty points</h1><p>Earn one point per 25 baht.</p></body></html>'), 'loyalty.html')
      .attach('file', await pdf('Warranty claims need the original receipt.'), 'warranty.pdf')
      .expect(201);
    expect(res.body.data.map((d: { title: string }) => d.title)).toEqual(['Gift cards', 'hours', 'Loyalty', 'Warranty policy']);
    expect(res.body.data.every((d: { publicSurfaces: string[] }) => d.publicSurfaces[0] === 'help_center')).toBe(true);
    // The answer leaves out the content the client just sent; the document has it.
    expect(res.body.data.some((d: object) => 'contentMd' in d)).toBe(false);
    const html = (await request(t.app).get(`/api/docs/${res.body.data[2].id}`).set(t.acme.auth).expect(200)).body;
    expect(html.contentMd).toContain('Earn one point per 25 baht.');
    expect(html.contentMd).not.toContain('alert');
    // ?wait=true: answered once indexed, and searchable at once.
    expect(res.body.data.map((d: { status: string }) => d.status)).toEqual(['indexed', 'indexed', 'indexed', 'indexed']);
    for (const [query, title] of [['gift cards expire', 'Gift cards'], ['original receipt warranty', 'Warranty policy'], ['loyalty point baht', 'Loyalty']]) {
      const found = await request(t.app).post('/api/search').set(t.acme.auth).send({ query }).expect(200);
      expect(found.body.results[0].title).toBe(title);
    }
  });

  it('answers an unsupported type with 415 and writes nothing', async () => {
    const res = await request(t.app)
      .post('/api/docs/upload')
      .set(t.acme.auth)
      .attach('file', Buffer.from('# ok'), 'ok.md')
      .attach('file', Buffer.from('PK\u0003\u0004'), 'sheet.xlsx')
      .expect(415);
    expect(res.body).toMatchObject({ code: 'unsupported_media_type' });
    expect(res.body.supported).toContain('.pdf');
    expect((await request(t.app).get('/api/docs').set(t.acme.auth)).body.data).toEqual([]);
  });

  it('answers a file over 10 MB with 413 and no file with 400', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 'a');
    const res = await request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', big, 'big.txt').expect(413);
    expect(res.body.code).toBe('payload_too_large');
    await request(t.app).post('/api/docs/upload').set(t.acme.auth).field('title', 'x').expect(400);
    expect((await request(t.app).get('/api/docs').set(t.acme.auth)).body.data).toEqual([]);
  });

  it('answers pending without ?wait, and names the field when files come in another one', async () => {
    const res = await request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', Buffer.from('# Later\n\nIndexed later.'), 'later.md').expect(201);
    expect(res.body.data[0].status).toBe('pending');
    const wrong = await request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('files', Buffer.from('# x'), 'x.md').expect(400);
    expect(wrong.body.detail).toBe('Files go in the multipart field "file" (got a file in "files").');
    await t.engine.ingest.drain();
  });

  it('needs the write scope', async () => {
    const readOnly = (await t.engine.apiKeys.create(t.acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    await request(t.app).post('/api/docs/upload').set('Authorization', `Bearer ${readOnly}`).attach('file', Buffer.from('# x'), 'x.md').expect(403);
  });
});
