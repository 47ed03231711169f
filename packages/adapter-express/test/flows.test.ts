import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

let engine: Engine;
afterEach(async () => engine?.close());

async function setup() {
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => new Date('2026-10-20T12:00:00Z') } });
  const app = createPanyaApp(engine);
  const acme = await makeTenant(engine, 'acme', ['read', 'write']);
  const globex = await makeTenant(engine, 'globex', ['read', 'write']);
  return { app, acme, globex };
}

const refundFlow = { name: 'Refund request', steps: [{ title: 'Collect the order number' }, { title: 'Draft the reply', instructions: 'Cite the refund policy.' }] };

describe('guided flows', () => {
  it('CRUD: create (201 + Location), list, read, update, delete; tenants and bad input are kept apart', async () => {
    const { app, acme, globex } = await setup();
    const created = await request(app).post('/api/flows').set(acme.auth).send(refundFlow).expect(201);
    expect(created.headers.location).toBe(`/api/flows/${created.body.id}`);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^flow_/), name: 'Refund request', steps: [{ title: 'Collect the order number', instructions: null }, { title: 'Draft the reply', instructions: 'Cite the refund policy.' }] });
    expect(created.body.tenantId).toBeUndefined();
    expect((await request(app).get('/api/flows').set(acme.auth).expect(200)).body.data.map((f: { id: string }) => f.id)).toEqual([created.body.id]);
    await request(app).get(`/api/flows/${created.body.id}`).set(globex.auth).expect(404);
    expect((await request(app).get('/api/flows').set(globex.auth).expect(200)).body.data).toEqual([]);
    const renamed = await request(app).patch(`/api/flows/${created.body.id}`).set(acme.auth).send({ name: 'Refunds' }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Refunds', steps: created.body.steps });
    await request(app).post('/api/flows').set(acme.auth).send({ name: 'x', steps: [] }).expect(400);
    await request(app).post('/api/flows').set(acme.auth).send({ name: '', steps: [{ title: 'a' }] }).expect(400);
    await request(app).patch(`/api/flows/${created.body.id}`).set(acme.auth).send({}).expect(400);
    const reader = await makeTenant(engine, 'reader', ['read']);
    await request(app).post('/api/flows').set(reader.auth).send(refundFlow).expect(403);
    await request(app).delete(`/api/flows/${created.body.id}`).set(globex.auth).expect(404);
    expect((await request(app).delete(`/api/flows/${created.body.id}`).set(acme.auth).expect(200)).body).toEqual({ id: created.body.id, deleted: true });
    await request(app).get(`/api/flows/${created.body.id}`).set(acme.auth).expect(404);
  });

  it('a run completes only after a draft; completion writes flow.completed and bills one guided flow once, however often retried', async () => {
    const { app, acme, globex } = await setup();
    const flow = (await request(app).post('/api/flows').set(acme.auth).send(refundFlow).expect(201)).body;
    const run = await request(app).post(`/api/flows/${flow.id}/runs`).set(acme.auth).send({}).expect(201);
    expect(run.headers.location).toBe(`/api/flow-runs/${run.body.id}`);
    expect(run.body).toMatchObject({ flowId: flow.id, status: 'started', draft: null });
    await request(app).post('/api/flows/flow_missing/runs').set(acme.auth).send({}).expect(404);

    const early = await request(app).post(`/api/flow-runs/${run.body.id}/complete`).set(acme.auth).expect(409);
    expect(early.body.code).toBe('conflict');
    await request(app).post(`/api/flow-runs/${run.body.id}/draft`).set(globex.auth).send({ content: 'x' }).expect(404);
    await request(app).post(`/api/flow-runs/${run.body.id}/draft`).set(acme.auth).send({}).expect(400);
    const drafted = await request(app).post(`/api/flow-runs/${run.body.id}/draft`).set(acme.auth).send({ content: 'Dear customer, your refund is on its way.' }).expect(200);
    expect(drafted.body).toMatchObject({ status: 'drafted', draft: 'Dear customer, your refund is on its way.' });

    const completions = await Promise.all([0, 1, 2].map(() => request(app).post(`/api/flow-runs/${run.body.id}/complete`).set(acme.auth)));
    expect(completions.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(completions.every((r) => r.body.status === 'completed')).toBe(true);
    await request(app).post(`/api/flow-runs/${run.body.id}/complete`).set(acme.auth).expect(200);
    await request(app).post(`/api/flow-runs/${run.body.id}/draft`).set(acme.auth).send({ content: 'changed' }).expect(409);

    const audit = await engineInternals(engine).store.audit.list(acme.tenant.id, { type: 'flow.completed' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ subjectId: run.body.id, data: { flowId: flow.id } });
    expect((await engineInternals(engine).store.usage.sumUsage(acme.tenant.id, '2026-10')).guided_flow).toBe(1);
    expect((await engineInternals(engine).store.usage.sumUsage(globex.tenant.id, '2026-10')).guided_flow).toBeUndefined();
  });
});
