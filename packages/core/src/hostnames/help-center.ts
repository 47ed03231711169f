/**
 * The public help center: which tenant and workspace a help-host path or a custom hostname
 * serves (or that it redirects, is gone, or is unknown), the published articles and search, the
 * publishable key its "ask" box answers through, and the edge-cache purges when documents change.
 * Rendering is the adapter's; every rule is here or in `help-center-rules.ts`.
 */
import {
  HELP_CENTER_SURFACE,
  HELP_HOME_ARTICLES,
  HELP_QUERY_MAX_CHARS,
  HELP_SEARCH_RESULTS,
  inactiveHostnameRedirect,
  parseHelpPath,
  siteBase,
  workspacePurge,
  type HelpHost,
  type HelpPage,
} from './help-center-rules.js';
import type { EdgeProvider, EdgePurge } from './ports/edge.js';
import type { DocumentRecord, Scope, TenantRecord, WorkspaceRecord } from '../ports/store.js';
import type { SearchResult } from '../schemas/responses.js';
import type { HostLookupCache } from './host-cache.js';
import type { ReservedHostnames } from '../hostnames/reserved.js';
import { claimsHost } from '../hostnames/rules.js';
import type { ApiKeyService } from '../tenancy/api-keys.js';
import { audiencesOf, type RequestContext, type ServiceDeps } from '../context.js';
import { canRead, readerAudiences, type VisitorIdentity } from '../audiences/rules.js';
import type { SearchService } from '../search/search.js';
import { suspendedWorkspaceError } from '../tenancy/workspaces.js';
import { redactorFor } from '../privacy/settings.js';

/** One help center: a tenant's workspace, as addressed on the help host or a custom hostname. */
export interface HelpSite {
  tenant: TenantRecord;
  workspace: WorkspaceRecord;
  /** Path prefix of the site's links (`/acme`, `/acme/_w/support`, ``, `/_w/support`). */
  base: string;
  /** The custom hostname serving it, or null on the help host. */
  hostname: string | null;
}

export type HelpResolution =
  | { kind: 'site'; site: HelpSite; page: HelpPage }
  /** A hostname below Business: permanent redirect to the help host path. */
  | { kind: 'redirect'; location: string }
  /** An erased tenant's slug or hostname: 410 Gone, never cached. */
  | { kind: 'gone' }
  /** A workspace suspended over the plan's cap: 403 naming the plan that restores it. */
  | { kind: 'suspended'; plan: string }
  | { kind: 'not_found' };

export interface HelpRequest {
  /** The request's hostname, without port. */
  hostname: string;
  /** Path without query. */
  path: string;
  /** Path and query, kept in redirects. */
  url: string;
}

export interface HelpCenterDeps extends ServiceDeps {
  edge: EdgeProvider;
  helpHost: HelpHost | null;
  search: SearchService;
  /** Provisions the publishable key a site embeds for its ask box. */
  apiKeys: Pick<ApiKeyService, 'create'>;
  /** Whether a hostname is the help center's, remembered briefly (see `host-cache.ts`). */
  hosts: HostLookupCache;
  /** The service's own names (the API's hostnames are never a help center's). */
  reserved?: ReservedHostnames;
}

/** The chat widget's settings (`GET /api/widget`). */
export interface WidgetConfig {
  name: string;
  brandAccent: string | null;
  /** The help center's home page, when citations link to it. */
  helpCenterUrl: string | null;
  /** A cited document's article page, `{documentId}` to replace; null: citations are not links. */
  articleUrl: string | null;
}

/** The name of the publishable key a help center provisions for its pages. */
export const HELP_CENTER_KEY_NAME = 'Help center';

/** Cuts public input to the bound (a visitor's long paste is shortened, never refused). */
function boundQuery(raw: unknown): string {
  return (typeof raw === 'string' ? raw : '').trim().slice(0, HELP_QUERY_MAX_CHARS);
}

export function createHelpCenterService(deps: HelpCenterDeps) {
  const { store, edge, helpHost, logger } = deps;

  /** The tenant's site for an addressed workspace (default when none), or null for a missing or deleted one. */
  async function siteOf(tenant: TenantRecord, workspaceSlug: string | undefined, hostname: string | null): Promise<HelpSite | { kind: 'suspended'; plan: string } | null> {
    const workspace = workspaceSlug === undefined ? await store.workspaces.getDefault(tenant.id) : await store.workspaces.getBySlug(tenant.id, workspaceSlug);
    if (!workspace || workspace.deletedAt) return null;
    if (workspace.suspendedAt) {
      const problem = suspendedWorkspaceError(tenant, workspace, (await store.workspaces.list(tenant.id)).length, deps.clock.now());
      return { kind: 'suspended', plan: problem.code === 'plan_required' ? problem.plan : tenant.plan };
    }
    return { tenant, workspace, base: siteBase(hostname === null ? tenant.slug : null, workspace), hostname };
  }

  const scopeOf = (site: HelpSite): Scope => ({ tenantId: site.tenant.id, workspaceId: site.workspace.id });
  /** The help center reads as its own key does: `public`, and a signed visitor's audiences. */
  const helpAudiences = (identity: VisitorIdentity | null): string[] => readerAudiences({ surface: HELP_CENTER_SURFACE }, identity)!;

  /** Hostnames currently serving the tenant's help center (purge targets). */
  async function servingHostnames(tenantId: string): Promise<string[]> {
    return (await store.hostnames.list(tenantId)).filter((h) => h.status === 'active' || h.status === 'inactive').map((h) => h.hostname);
  }

  async function sendPurge(request: EdgePurge, what: Record<string, unknown>): Promise<boolean> {
    if (edge.id === 'none') return true;
    try {
      await edge.purge(request);
      return true;
    } catch (error) {
      logger.warn('edge.purge.failed', { ...what, error: (error as Error).message });
      return false;
    }
  }

  /** Where the request's workspace shows its articles (`{base}/articles/{id}`): its active custom hostname, else the help host; null with neither. */
  async function articleBase(ctx: Pick<RequestContext, 'tenant' | 'workspace'>): Promise<string | null> {
    const active = (await store.hostnames.list(ctx.tenant.id)).find((h) => h.status === 'active');
    const origin = active ? `https://${active.hostname}` : helpHost?.origin;
    return origin ? `${origin}${siteBase(active ? null : ctx.tenant.slug, ctx.workspace)}` : null;
  }

  return {
    helpHost,

    /** Is this hostname the help host? (The adapter dispatches such requests to the help center.) */
    isHelpHost(hostname: string): boolean {
      return helpHost !== null && hostname.toLowerCase() === helpHost.hostname;
    },

    /**
     * Whether a hostname is one the help center answers for besides the help host: a custom
     * hostname in any state, or one kept by an erased tenant's tombstone.
     */
    async isHelpHostname(hostname: string): Promise<boolean> {
      const host = hostname.toLowerCase();
      if (deps.reserved?.isApiHostname(host)) return false;
      // Only a hostname the edge verified claims its Host: a tenant's unverified record never takes a name from anyone.
      return deps.hosts.lookup(host, async () => {
        const record = await store.hostnames.findByHostname(host);
        return (record !== null && claimsHost(record)) || (await store.tombstones.findByHostname(host)) !== null;
      });
    },

    /** The API's own hostnames (configured): never looked up as a custom hostname. */
    isApiHostname(hostname: string): boolean {
      return deps.reserved?.isApiHostname(hostname) ?? false;
    },

    /** What a request to the help host or a custom hostname gets. */
    async resolve(request: HelpRequest): Promise<HelpResolution> {
      const host = request.hostname.toLowerCase();
      if (helpHost && host === helpHost.hostname) {
        const path = parseHelpPath(request.path, true);
        if (!path?.tenantSlug) return { kind: 'not_found' };
        const tenant = await store.tenants.getBySlug(path.tenantSlug);
        if (!tenant) return (await store.tombstones.getBySlug(path.tenantSlug)) ? { kind: 'gone' } : { kind: 'not_found' };
        const site = await siteOf(tenant, path.workspaceSlug, null);
        if (site && 'kind' in site) return site;
        return site ? { kind: 'site', site, page: path.page } : { kind: 'not_found' };
      }
      const record = await store.hostnames.findByHostname(host);
      if (!record) return (await store.tombstones.findByHostname(host)) ? { kind: 'gone' } : { kind: 'not_found' };
      const tenant = await store.tenants.get(record.tenantId);
      if (!tenant) return { kind: 'gone' };
      if (record.status === 'inactive') {
        return helpHost ? { kind: 'redirect', location: inactiveHostnameRedirect(helpHost, tenant.slug, request.url) } : { kind: 'not_found' };
      }
      if (record.status !== 'active') return { kind: 'not_found' };
      const path = parseHelpPath(request.path, false)!;
      const site = await siteOf(tenant, path.workspaceSlug, record.hostname);
      if (site && 'kind' in site) return site;
      return site ? { kind: 'site', site, page: path.page } : { kind: 'not_found' };
    },

    /**
     * The site's articles its visitor reads, by title: published ones, and with a verified
     * identity also those of `customers` and the visitor's segments.
     */
    async articles(site: HelpSite, identity: VisitorIdentity | null = null): Promise<DocumentRecord[]> {
      const docs = await store.documents.listReadable(scopeOf(site), helpAudiences(identity), HELP_HOME_ARTICLES);
      return docs.sort((a, b) => a.title.localeCompare(b.title));
    },

    /** Whether the site shows anything to its visitor (spec: no published document → 404 for the anonymous). */
    async hasArticles(site: HelpSite, identity: VisitorIdentity | null = null): Promise<boolean> {
      return (await store.documents.listReadable(scopeOf(site), helpAudiences(identity), 1)).length > 0;
    },

    /** An article of the site its visitor reads; anything else is not found (never a hint that it exists). */
    async article(site: HelpSite, id: string, identity: VisitorIdentity | null = null): Promise<DocumentRecord | null> {
      const doc = await store.documents.get(scopeOf(site), id);
      return doc && canRead(helpAudiences(identity), doc.audiences) ? doc : null;
    },

    /** The hybrid search over the documents its visitor reads. Public pages are not metered. */
    async search(site: HelpSite, query: unknown, identity: VisitorIdentity | null = null): Promise<{ query: string; results: SearchResult[] }> {
      const q = boundQuery(query);
      if (!q) return { query: q, results: [] };
      const { results } = await deps.search.run(scopeOf(site), { query: q, topK: HELP_SEARCH_RESULTS }, helpAudiences(identity), redactorFor(site.workspace));
      return { query: q, results };
    },

    /** The origin a site's pages are served from: the help host, or the custom hostname (TLS at the edge). */
    siteOrigin(site: HelpSite): string {
      return site.hostname ? `https://${site.hostname}` : (helpHost?.origin ?? '');
    },

    /** The origins of a tenant's help center: a key restricted to it is accepted from these pages. */
    async origins(tenantId: string): Promise<string[]> {
      const active = (await store.hostnames.list(tenantId)).filter((h) => h.status === 'active').map((h) => `https://${h.hostname}`);
      return helpHost ? [helpHost.origin, ...active] : active;
    },

    /**
     * The publishable key a site's ask box answers through: restricted to the help center, bound
     * to the site's workspace, provisioned on first use. Revoking it provisions a new one (and
     * purges the pages that carried the old one).
     */
    async siteKey(site: HelpSite): Promise<string> {
      const existing = (await store.apiKeys.list(site.tenant.id)).find((k) => k.embeddedKey && !k.revokedAt && k.workspaceId === site.workspace.id);
      if (existing) return existing.embeddedKey!;
      const created = await deps.apiKeys.create(
        site.tenant.id,
        { name: HELP_CENTER_KEY_NAME, kind: 'publishable', scopes: ['read'], workspaceSlug: site.workspace.slug, surface: HELP_CENTER_SURFACE },
        { embedded: true },
      );
      if (created.isErr()) throw new Error(`The help center could not provision its key: ${created.error.message}`);
      return created.value.key;
    },

    /**
     * What the chat widget shows for a key: the workspace's name and brand accent, and where its
     * citations link — the help center's articles, for a caller that reads published documents only
     * (every publishable key; a secret key may cite internal documents, which have no public page).
     */
    async widget(ctx: RequestContext): Promise<WidgetConfig> {
      const base = await articleBase(ctx);
      const restricted = audiencesOf(ctx) !== null;
      return {
        name: ctx.workspace.name,
        brandAccent: ctx.workspace.brandAccent ?? null,
        helpCenterUrl: base && restricted ? `${base}/` : null,
        articleUrl: base && restricted ? `${base}/articles/{documentId}` : null,
      };
    },

    articleBase,

    /** Whether an ask-box request's key may answer on this site: the site's tenant and workspace, help-center documents only. */
    admits(site: HelpSite, ctx: RequestContext): boolean {
      return ctx.tenant.id === site.tenant.id && ctx.workspace.id === site.workspace.id && ctx.principal.surface === HELP_CENTER_SURFACE;
    },

    /**
     * A workspace's documents, name, brand or lifecycle changed: purge its help-center pages at the
     * edge (help host and custom hostnames). A failed purge is logged; cached pages then expire on their own.
     */
    async siteChanged(scope: Scope): Promise<boolean> {
      if (edge.id === 'none') return true;
      const [tenant, workspace] = await Promise.all([store.tenants.get(scope.tenantId), store.workspaces.get(scope.tenantId, scope.workspaceId)]);
      if (!tenant || !workspace) return true;
      return sendPurge(workspacePurge(helpHost, tenant.slug, workspace, await servingHostnames(tenant.id)), { tenantId: tenant.id, workspaceId: workspace.id });
    },

    /** After a plan change: a hostname that starts or stops redirecting must not keep its cached answers. */
    async hostnamesChanged(tenantId: string): Promise<boolean> {
      const hostnames = await servingHostnames(tenantId);
      if (hostnames.length === 0) return true;
      return sendPurge({ hosts: hostnames }, { tenantId });
    },

    sendPurge,
  };
}

export type HelpCenterService = ReturnType<typeof createHelpCenterService>;
