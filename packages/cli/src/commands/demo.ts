import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { API_KEY_SCOPES, type Engine } from '@panya/core';
import { demoArticles } from '../demo/articles.js';
import type { Io } from '../runtime.js';
import { fail } from './tenant.js';

export const DEMO_TENANT = 'demo';
const DEMO_KEY_NAME = 'demo';
/** The demo's brand: the shop its sample articles describe. */
export const DEMO_BRAND = { name: 'Siam Mart', brandAccent: '#c2410c' } as const;
/** The demo owner, who signs in to the admin app. */
export const DEMO_OWNER = 'owner@demo.example';

/**
 * The demo owner's sign-in: created with a generated password, kept in `passwordFile` (beside
 * the SQLite database, readable by its owner only) so the banner can show it on every start.
 * Without the file the owner still exists; the password is then not known to this process.
 */
async function demoOwner(engine: Engine, passwordFile: string | undefined): Promise<{ email: string; password: string | null }> {
  const saved = passwordFile && existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8').trim() : '';
  const login = saved ? await engine.users.login({ email: DEMO_OWNER, password: saved }) : null;
  if (login?.isOk()) {
    await engine.users.logout(login.value.token);
    return { email: DEMO_OWNER, password: saved };
  }
  const password = randomBytes(9).toString('base64url');
  // An owner created earlier (its password not kept here) stays as it is: one membership per user.
  const created = await engine.users.createUser({ email: DEMO_OWNER, password, tenantSlug: DEMO_TENANT, role: 'owner' }).catch(() => null);
  if (!created?.isOk()) return { email: DEMO_OWNER, password: null };
  const fresh = await engine.users.login({ email: DEMO_OWNER, password });
  if (fresh.isErr()) return { email: DEMO_OWNER, password: null };
  await engine.users.logout(fresh.value.token);
  if (passwordFile) writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  return { email: DEMO_OWNER, password };
}

/**
 * The demo key stays the same across restarts, so curl scripts and MCP hosts configured with it
 * keep working: it is kept in `keyFile` (beside the SQLite database, readable by its owner only)
 * and reused while it still authenticates for the demo tenant. Without a key file (PostgreSQL,
 * in-memory) or once it stops working, a new key is issued and earlier demo keys are revoked.
 * A key configured as `PANYA_DEMO_KEY` is used instead, on any database.
 */
async function demoKey(engine: Engine, tenantId: string, keyFile: string | undefined, configured: string | undefined): Promise<{ key: string; reused: boolean }> {
  const saved = configured ?? (keyFile && existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '');
  if (saved) {
    const principal = await engine.apiKeys.authenticate(saved);
    if (principal.isOk() && principal.value.tenantId === tenantId) return { key: saved, reused: true };
  }
  for (const old of await engine.apiKeys.list(tenantId)) {
    if (old.name === DEMO_KEY_NAME && !old.revokedAt) await engine.apiKeys.revoke(tenantId, old.id);
  }
  const created = await engine.apiKeys.create(tenantId, { name: DEMO_KEY_NAME, scopes: [...API_KEY_SCOPES] }, configured ? { key: configured } : {});
  if (created.isErr()) fail(configured ? { ...created.error, message: `PANYA_DEMO_KEY: ${created.error.message}` } : created.error);
  // A configured key lives in the configuration; only a generated one needs keeping.
  if (keyFile && !configured) writeFileSync(keyFile, `${created.value.key}\n`, { mode: 0o600 });
  return { key: created.value.key, reused: false };
}

/** Where the demo key of a database is kept: beside a SQLite file; nowhere for other databases. */
export function demoKeyFile(db: string): string | undefined {
  return db === ':memory:' || /^[a-z][a-z0-9+.-]*:\/\//i.test(db) ? undefined : `${db}.demo-key`;
}

/** The demo owner's password file: beside the key file. */
function demoPasswordFile(keyFile: string | undefined): string | undefined {
  return keyFile?.replace(/\.demo-key$/, '.demo-password');
}

/**
 * Idempotent: creates tenant `demo` (Business) if missing, adds any sample article it lacks
 * (matched by title), and prints the demo API key (the same one across runs, see `demoKey`).
 */
export async function demoCommand(engine: Engine, io: Io, opts: { json?: boolean; keyFile?: string; key?: string } = {}) {
  let tenant = (await engine.tenancy.getTenantBySlug(DEMO_TENANT)).unwrapOr(null);
  if (!tenant) {
    const created = await engine.tenancy.createTenant({ slug: DEMO_TENANT, plan: 'business', ...DEMO_BRAND });
    if (created.isErr()) fail(created.error);
    tenant = created.value.tenant;
  }
  const ctx = await engine.access.system(DEMO_TENANT);
  if (ctx.isErr()) fail(ctx.error);
  // A demo created before it had a brand gets it now (a name someone chose is kept).
  if (ctx.value.workspace.name === 'Default') {
    const branded = await engine.workspaces.update(ctx.value, ctx.value.workspace.id, DEMO_BRAND);
    if (branded.isErr()) fail(branded.error);
  }

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

  const key = await demoKey(engine, tenant.id, opts.keyFile, opts.key);
  const signIn = await demoOwner(engine, demoPasswordFile(opts.keyFile));
  // The help center's own publishable key (read-only, published articles): what the widget snippet embeds.
  const widgetKey = await engine.helpCenter.siteKey({ tenant, workspace: ctx.value.workspace, base: `/${tenant.slug}`, hostname: null });

  const summary = { tenant: tenant.slug, plan: tenant.plan, brand: DEMO_BRAND.name, articlesAdded: create.length, articles: demoArticles.length, apiKey: key.key, keyReused: key.reused, signIn, widgetKey };
  if (opts.json) io.out(JSON.stringify(summary, null, 2));
  else {
    io.out(`Demo tenant "${tenant.slug}" (${tenant.plan}): ${demoArticles.length} help-center articles (${create.length} added now).`);
    io.out(`Demo API key (all scopes; ${key.reused ? 'the same key as last time' : 'a new key; earlier demo keys are revoked'}):\n  ${key.key}`);
    io.out(`Admin app sign-in: ${signIn.email}${signIn.password ? ` / ${signIn.password}` : ''}`);
  }
  return summary;
}
