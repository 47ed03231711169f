import type { TestContext } from 'vitest';
import { createEngine, ENGINE_INTERNALS, type Engine, type EngineInternals } from '../engine.js';
import type { DocumentRecord, Store, TenantRecord, WorkspaceRecord } from '../ports/store.js';
import { createIds } from '../system.js';
import { documentVisibility } from '../audiences/rules.js';

const ids = createIds();
const stamp = () => new Date().toISOString();

export function makeTenant(slug: string, overrides: Partial<TenantRecord> = {}): TenantRecord {
  return { id: ids.next('ten'), slug, plan: 'business', quotas: {}, paymentCustomerId: null, createdAt: stamp(), updatedAt: stamp(), ...overrides };
}

export function makeWorkspace(tenantId: string, slug: string, overrides: Partial<WorkspaceRecord> = {}): WorkspaceRecord {
  return {
    id: ids.next('ws'),
    tenantId,
    slug,
    name: slug,
    brandAccent: null,
    isDefault: slug === 'default',
    deletedAt: null,
    suspendedAt: null,
    privacy: null,
    createdAt: stamp(),
    updatedAt: stamp(),
    ...overrides,
  };
}

export function makeDocument(tenantId: string, workspaceId: string, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  // Audiences follow the surfaces (as core writes them) unless given.
  const visibility = documentVisibility({ publicSurfaces: overrides.publicSurfaces ?? [], audiences: overrides.audiences ?? [] });
  return {
    id: ids.next('doc'),
    tenantId,
    workspaceId,
    title: 'Title',
    contentMd: '# Title\n\nBody',
    url: null,
    ...visibility,
    externalId: null,
    metadata: {},
    status: 'pending',
    error: null,
    createdAt: stamp(),
    updatedAt: stamp(),
    ...overrides,
  };
}

/** Two tenants, each with a default and a second workspace: the isolation fixture. */
export async function seedTwoTenants(store: Store) {
  const a = makeTenant('tenant-a');
  const b = makeTenant('tenant-b');
  const aDefault = makeWorkspace(a.id, 'default');
  const aSecond = makeWorkspace(a.id, 'second');
  const bDefault = makeWorkspace(b.id, 'default');
  for (const t of [a, b]) await store.tenants.insert(t);
  for (const w of [aDefault, aSecond, bDefault]) await store.workspaces.insert(w);
  return {
    a,
    b,
    aDefault,
    aSecond,
    bDefault,
    scopeA: { tenantId: a.id, workspaceId: aDefault.id },
    scopeA2: { tenantId: a.id, workspaceId: aSecond.id },
    scopeB: { tenantId: b.id, workspaceId: bDefault.id },
  };
}

/**
 * Skips a conformance case the store declares it cannot run, naming the capability (the reporter
 * shows the reason): a backend opts out by declaring, never by a silent early return.
 */
export function requireCapability(ctx: TestContext, declared: boolean, capability: string): void {
  if (!declared) ctx.skip(`the store declares ${capability}: false`);
}

/**
 * The store, service deps and ingest worker inside an engine, for tests that arrange or inspect
 * what no service exposes. Production code reaches the data through the engine's services only.
 */
export function engineInternals(engine: Engine): EngineInternals {
  const internals = (engine as unknown as Record<symbol, EngineInternals | undefined>)[ENGINE_INTERNALS];
  if (!internals) throw new Error('Not an engine built by createEngine.');
  return internals;
}

/** An article that chunks into one chunk equal to its source (no heading: the chunk is the whole text). */
export const oneChunkArticle = (topic: string) =>
  `Returns of ${topic} are accepted within 30 days of delivery. Keep the receipt and the original packaging; a refund reaches the card used to pay within five working days. ` +
  `Damaged ${topic} are replaced free of charge, and the courier collects them from the address of the order. Order code RX-${topic.length}42 tracks it.`;

/** A long article of several sections: several chunks, each with its own text. */
export const manyChunkManual = Array.from({ length: 8 }, (_, i) => `## Step ${i}\n\n${`Connect the router to port ${i} and wait for the light to turn green before the next step. `.repeat(30)}`).join('\n\n');

/** Tenant `acme` with one document of each (`oneChunkArticle('kettles')`, `manyChunkManual`), ingested: how a store lays out a document's text. */
export async function seedOneAndManyChunkDocuments(store: Store) {
  const engine = createEngine({ store });
  (await engine.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
  const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
  const one = (await engine.documents.create(ctx, { title: 'Kettles', contentMd: oneChunkArticle('kettles') }))._unsafeUnwrap();
  const many = (await engine.documents.create(ctx, { title: 'Router', contentMd: manyChunkManual }))._unsafeUnwrap();
  await engine.ingest.drain();
  return { engine, ctx, one, many };
}
