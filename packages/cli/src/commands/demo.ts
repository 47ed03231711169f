import { API_KEY_SCOPES, type Engine } from '@panya/core';
import { demoArticles } from '../demo/articles.js';
import type { Io } from '../runtime.js';
import { fail } from './tenant.js';

export const DEMO_TENANT = 'demo';
const DEMO_KEY_NAME = 'demo';

/**
 * Idempotent: creates tenant `demo` (Business) if missing, adds any sample article it lacks
 * (matched by title), and issues a fresh API key, revoking the previous demo key.
 */
export async function demoCommand(engine: Engine, io: Io, opts: { json?: boolean } = {}) {
  let tenant = (await engine.tenancy.getTenantBySlug(DEMO_TENANT)).unwrapOr(null);
  if (!tenant) {
    const created = await engine.tenancy.createTenant({ slug: DEMO_TENANT, plan: 'business' });
    if (created.isErr()) fail(created.error);
    tenant = created.value.tenant;
  }
  const ctx = await engine.access.system(DEMO_TENANT);
  if (ctx.isErr()) fail(ctx.error);

  const existing = new Set<string>();
  for (let cursor: string | null | undefined; ; ) {
    const page = await engine.documents.list(ctx.value, { limit: 100, ...(cursor ? { cursor } : {}) });
    if (page.isErr()) fail(page.error);
    for (const d of page.value.items) existing.add(d.title);
    cursor = page.value.nextCursor;
    if (!cursor) break;
  }
  const create = demoArticles
    .filter((a) => !existing.has(a.title))
    .map((a) => ({ title: a.title, contentMd: a.contentMd, publicSurfaces: ['help_center' as const], url: null }));
  if (create.length > 0) {
    const result = await engine.documents.bulk(ctx.value, { create });
    if (result.isErr()) fail(result.error);
  }

  for (const old of await engine.apiKeys.list(tenant.id)) {
    if (old.name === DEMO_KEY_NAME && !old.revokedAt) await engine.apiKeys.revoke(tenant.id, old.id);
  }
  const key = await engine.apiKeys.create(tenant.id, { name: DEMO_KEY_NAME, scopes: [...API_KEY_SCOPES] });
  if (key.isErr()) fail(key.error);

  const summary = { tenant: tenant.slug, plan: tenant.plan, articlesAdded: create.length, articles: demoArticles.length, apiKey: key.value.key };
  if (opts.json) io.out(JSON.stringify(summary, null, 2));
  else {
    io.out(`Demo tenant "${tenant.slug}" (${tenant.plan}): ${demoArticles.length} help-center articles (${create.length} added now).`);
    io.out(`Demo API key (all scopes; the previous demo key is revoked):\n  ${key.value.key}`);
  }
  return summary;
}
