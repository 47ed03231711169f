import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const HELP = 'help.panya.example';
let engine: Engine;
afterEach(() => engine.close());

describe('citation links to the help center', () => {
  it('an answer cites the section of a published article, and the article page has that anchor; an internal document gets no link', async () => {
    engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost(HELP) });
    const app = createPanyaApp(engine, { helpCenter: { apiHostname: 'api.panya.example' } });
    const acme = await makeTenant(engine, 'acme');
    const shipping = (
      await request(app)
        .post('/api/docs?wait=true')
        .set(acme.auth)
        .send({ title: 'Shipping', contentMd: '# Shipping\n\n## Costs\n\nShipping is free over 1,000 baht.\n\n## ค่าจัดส่ง ต่างจังหวัด\n\nส่งต่างจังหวัดค่าส่ง 50 บาท', publicSurfaces: ['help_center'] })
        .expect(201)
    ).body;
    const internal = (await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title: 'Escalations', contentMd: '# Escalations\n\n## Managers\n\nRefund escalations go to a manager within 2 hours.' }).expect(201)).body;

    const thai = await request(app).post('/api/answer').set(acme.auth).send({ query: 'ส่งต่างจังหวัดค่าส่งเท่าไหร่' }).expect(200);
    const cited = thai.body.citations.find((c: { documentId: string }) => c.documentId === shipping.id);
    expect(cited).toMatchObject({ title: 'Shipping', headingPath: ['Shipping', 'ค่าจัดส่ง ต่างจังหวัด'] });
    expect(cited.articleUrl).toBe(`https://${HELP}/acme/articles/${shipping.id}#ค่าจัดส่ง-ต่างจังหวัด`);
    const page = await request(app).get(`/acme/articles/${shipping.id}`).set('Host', HELP).expect(200);
    expect(page.text).toContain('<h2 id="ค่าจัดส่ง-ต่างจังหวัด">ค่าจัดส่ง ต่างจังหวัด</h2>');
    expect(page.text).toContain('<h2 id="costs">Costs</h2>');

    const escalation = await request(app).post('/api/answer').set(acme.auth).send({ query: 'who handles refund escalations?' }).expect(200);
    const own = escalation.body.citations.find((c: { documentId: string }) => c.documentId === internal.id);
    expect(own).toMatchObject({ headingPath: ['Escalations', 'Managers'], articleUrl: null });
  });
});
