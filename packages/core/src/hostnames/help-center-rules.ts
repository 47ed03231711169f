/**
 * The help center's addressing rules: where a tenant's public pages live, which hostname serves
 * which tenant and workspace, where an inactive hostname redirects, and which edge-cache entries
 * a change invalidates. Pure functions; the service applies them to the store.
 */
import type { EdgePurge } from './ports/edge.js';

export { HELP_CENTER_SURFACE } from '../audiences/rules.js';

/** Path segment that introduces a workspace: `/{tenant}/_w/{workspace}/…` (help host), `/_w/{workspace}/…` (custom hostname). */
export const WORKSPACE_SEGMENT = '_w';

/** Most articles listed on a help-center home page. */
export const HELP_HOME_ARTICLES = 500;
/** Results on a help-center search page. */
export const HELP_SEARCH_RESULTS = 10;
/** Longest question or search the public pages accept (longer input is cut, never refused). */
export const HELP_QUERY_MAX_CHARS = 300;

/** `PANYA_HELP_HOST`, parsed: where `/{tenantSlug}/…` pages are served. */
export interface HelpHost {
  /** `https://help.example.com` (scheme and port kept when configured as a URL). */
  origin: string;
  /** `help.example.com`: what the `Host` header is matched against (port ignored). */
  hostname: string;
  /** `help.example.com[:port]`: the form edge cache prefixes use. */
  host: string;
}

/**
 * Parses `PANYA_HELP_HOST`: a bare host (`help.example.com`, https assumed) or an origin
 * (`http://help.localhost:3000`). Throws with the setting's name on anything else.
 */
export function parseHelpHost(value: string): HelpHost {
  const raw = value.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw new Error(`PANYA_HELP_HOST: "${value}" is not a hostname or an http(s) origin.`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new Error(`PANYA_HELP_HOST: "${value}" must be a hostname or an origin without a path, e.g. help.example.com.`);
  }
  return { origin: url.origin, hostname: url.hostname.toLowerCase(), host: url.host.toLowerCase() };
}

/** The page a help-center path names, below its site's base path. */
export type HelpPage = { kind: 'home' } | { kind: 'article'; id: string } | { kind: 'search' } | { kind: 'ask' } | { kind: 'unknown' };

/** A help-center path split into its parts. */
export interface HelpPath {
  /** On the help host: the first segment. Absent on a custom hostname (the hostname names the tenant). */
  tenantSlug?: string;
  workspaceSlug?: string;
  page: HelpPage;
}

function pageOf(rest: string[]): HelpPage {
  if (rest.length === 0) return { kind: 'home' };
  if (rest.length === 2 && rest[0] === 'articles' && rest[1]) return { kind: 'article', id: rest[1] };
  if (rest.length === 1 && rest[0] === 'search') return { kind: 'search' };
  if (rest.length === 1 && rest[0] === 'ask') return { kind: 'ask' };
  return { kind: 'unknown' };
}

/**
 * Splits a request path: on the help host `/{tenant}[/_w/{workspace}]/{page}`, on a custom
 * hostname `[/_w/{workspace}]/{page}`. Null when the path names no tenant (the help host's root).
 */
export function parseHelpPath(path: string, onHelpHost: boolean): HelpPath | null {
  let segments: string[];
  try {
    segments = path.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  const out: HelpPath = { page: { kind: 'unknown' } };
  if (onHelpHost) {
    const slug = segments.shift();
    if (!slug) return null;
    out.tenantSlug = slug;
  }
  if (segments[0] === WORKSPACE_SEGMENT) {
    if (!segments[1]) return { ...out, page: { kind: 'unknown' } };
    out.workspaceSlug = segments[1];
    segments = segments.slice(2);
  }
  out.page = pageOf(segments);
  return out;
}

/** The path prefix of a site's pages: `/acme`, `/acme/_w/support` (help host); ``, `/_w/support` (custom hostname). */
export function siteBase(tenantSlug: string | null, workspace: { slug: string; isDefault: boolean }): string {
  const own = workspace.isDefault ? '' : `/${WORKSPACE_SEGMENT}/${encodeURIComponent(workspace.slug)}`;
  return tenantSlug === null ? own : `/${encodeURIComponent(tenantSlug)}${own}`;
}

/** Spec: a hostname below Business answers a permanent 301 to `{help_host}/{tenant_slug}/<path>`. */
export function inactiveHostnameRedirect(helpHost: HelpHost, tenantSlug: string, pathAndQuery: string): string {
  const rest = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
  return `${helpHost.origin}/${encodeURIComponent(tenantSlug)}${rest}`;
}

/** Merges purge requests (the edge adapter batches each list). */
function purge(parts: { urls?: string[]; prefixes?: string[]; hosts?: string[] }): EdgePurge {
  return { urls: [...new Set(parts.urls ?? [])], prefixes: [...new Set(parts.prefixes ?? [])], hosts: [...new Set(parts.hosts ?? [])] };
}

/**
 * What a change to a workspace's public documents invalidates: its pages on the help host
 * (the base URL itself and every path below it) and on each of the tenant's serving hostnames
 * (the whole host for the default workspace, the workspace's prefix otherwise).
 */
export function workspacePurge(helpHost: HelpHost | null, tenantSlug: string, workspace: { slug: string; isDefault: boolean }, hostnames: readonly string[]): EdgePurge {
  const onHelp = siteBase(tenantSlug, workspace);
  const onCustom = siteBase(null, workspace);
  return purge({
    urls: [...(helpHost ? [`${helpHost.origin}${onHelp}`] : []), ...hostnames.map((h) => `https://${h}${onCustom || '/'}`)],
    prefixes: [...(helpHost ? [`${helpHost.host}${onHelp}/`] : []), ...(workspace.isDefault ? [] : hostnames.map((h) => `${h}${onCustom}/`))],
    hosts: workspace.isDefault ? [...hostnames] : [],
  });
}

/**
 * Spec (Tenant erasure 3): every sub-path of the tenant on the help host and every URL of its
 * custom hostnames.
 */
export function tenantPurge(helpHost: HelpHost | null, tenantSlug: string, hostnames: readonly string[]): EdgePurge {
  const base = `/${encodeURIComponent(tenantSlug)}`;
  return purge({
    urls: [...(helpHost ? [`${helpHost.origin}${base}`, `${helpHost.origin}${base}/`] : []), ...hostnames.map((h) => `https://${h}/`)],
    prefixes: [...(helpHost ? [`${helpHost.host}${base}/`] : []), ...hostnames.map((h) => `${h}/`)],
    hosts: [...hostnames],
  });
}

/**
 * The `id` a help-center article gives a heading, so a citation can link to its section: the
 * heading's words (any script) lowercased and joined by hyphens. Headings repeated in one article
 * get `-2`, `-3`, … after the first (the page renders them so; a citation links the first).
 */
export function headingAnchor(heading: string): string {
  return heading
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}
