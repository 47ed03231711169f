import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, apiBase, isApiError } from './api.js';
import type { AppContext } from './context.js';
import { lang, setLang, t, term, useLang, type MessageKey } from './i18n.js';
import { AuditScreen } from './screens/audit.js';
import { BillingScreen } from './screens/billing.js';
import { DocumentsScreen } from './screens/documents.js';
import { GapsScreen } from './screens/gaps.js';
import { HostnamesScreen } from './screens/hostnames.js';
import { InboxScreen } from './screens/inbox.js';
import { KeysScreen } from './screens/keys.js';
import { LoginScreen } from './screens/login.js';
import { PlaygroundScreen } from './screens/playground.js';
import { SsoScreen } from './screens/sso.js';
import { WorkspacesScreen } from './screens/workspaces.js';
import type { Me, Session, WorkspaceJson } from './types.js';
import { ErrorBox } from './ui.js';

interface Route {
  id: string;
  label: MessageKey;
  /** Tenant-wide owners and admins only. */
  admin?: boolean;
  screen: (props: { ctx: AppContext }) => preact.JSX.Element;
}

const ROUTES: Route[] = [
  { id: 'documents', label: 'nav.documents', screen: DocumentsScreen },
  { id: 'playground', label: 'nav.playground', screen: PlaygroundScreen },
  { id: 'inbox', label: 'nav.inbox', screen: InboxScreen },
  { id: 'gaps', label: 'nav.gaps', screen: GapsScreen },
  { id: 'workspaces', label: 'nav.workspaces', admin: true, screen: WorkspacesScreen },
  { id: 'keys', label: 'nav.keys', admin: true, screen: KeysScreen },
  { id: 'hostnames', label: 'nav.hostnames', admin: true, screen: HostnamesScreen },
  { id: 'billing', label: 'nav.billing', admin: true, screen: BillingScreen },
  { id: 'audit', label: 'nav.audit', admin: true, screen: AuditScreen },
  { id: 'sso', label: 'nav.sso', admin: true, screen: SsoScreen },
];

function currentRoute(): string {
  return location.hash.replace(/^#\/?/, '') || 'documents';
}

function useHashRoute(): string {
  const [route, setRoute] = useState(currentRoute());
  useEffect(() => {
    const onChange = () => setRoute(currentRoute());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function App() {
  useLang();
  const route = useHashRoute();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [tenant, setTenant] = useState<string | null>(null);
  const [workspace, setWorkspace] = useState<string | null>(null);
  const [me, setMe] = useState<Me | null>(null);
  const [workspaces, setWorkspaces] = useState<WorkspaceJson[]>([]);
  const [error, setError] = useState<unknown>(null);

  async function loadSession() {
    try {
      const s = await api<Session>('GET', '/api/auth/session');
      setSession(s);
      // Back from single sign-on (`?tenant=`), else the tenant chosen last time.
      const stored = new URLSearchParams(location.search).get('tenant') ?? localStorage.getItem('panya.tenant');
      const membership = s.memberships.find((m) => m.tenantSlug === stored) ?? s.memberships[0];
      setTenant(membership?.tenantSlug ?? null);
      setWorkspace(membership?.workspaceSlug ?? 'default');
    } catch (e) {
      if (isApiError(e) && e.problem.status === 401) setSession(null);
      else setError(e);
    }
  }

  useEffect(() => {
    void loadSession();
  }, []);

  async function loadWorkspaces(slug: string, current: Me) {
    if (!(current.tenantWide && current.scopes.includes('admin'))) return setWorkspaces([]);
    const list = await api<{ data: WorkspaceJson[] }>('GET', `/c/${slug}/api/workspaces`);
    setWorkspaces(list.data);
  }

  useEffect(() => {
    if (!tenant || !workspace) return;
    setMe(null);
    api<Me>('GET', `${apiBase(tenant, workspace)}/me`)
      .then(async (m) => {
        setMe(m);
        await loadWorkspaces(tenant, m);
      })
      .catch(setError);
  }, [tenant, workspace]);

  async function signOut() {
    await api('POST', '/api/auth/logout').catch(() => undefined);
    setSession(null);
    setMe(null);
  }

  if (session === undefined && !error) return <p class="boot">{t('loading')}</p>;
  if (session === null) return <LoginScreen onSignedIn={loadSession} />;
  if (error && !me) return <main id="main" class="boot"><ErrorBox error={error} /></main>;
  if (!session || !tenant || !me) return <p class="boot">{t('loading')}</p>;

  const isTenantAdmin = me.tenantWide && me.scopes.includes('admin');
  const ctx: AppContext = {
    base: apiBase(tenant, workspace),
    tenantBase: `/c/${tenant}/api`,
    me,
    can: (scope) => me.scopes.includes(scope),
    isTenantAdmin,
    workspaces,
    reloadWorkspaces: () => loadWorkspaces(tenant, me),
  };
  const visible = ROUTES.filter((r) => !r.admin || isTenantAdmin);
  const active = ROUTES.find((r) => r.id === route) ?? ROUTES[0]!;
  const allowed = visible.includes(active);
  const Screen = active.screen;
  const tenants = [...new Set(session.memberships.map((m) => m.tenantSlug))];
  const liveWorkspaces = workspaces.filter((w) => !w.deletedAt);

  return (
    <div class="layout">
      <a class="skip" href="#main">
        {t('skip')}
      </a>
      <header class="topbar">
        <span class="brand">{t('appName')}</span>
        {tenants.length > 1 ? (
          <label class="inline">
            {t('tenant')}
            <select
              value={tenant}
              onChange={(e) => {
                const next = (e.target as HTMLSelectElement).value;
                localStorage.setItem('panya.tenant', next);
                setTenant(next);
                setWorkspace(session.memberships.find((m) => m.tenantSlug === next)?.workspaceSlug ?? 'default');
              }}
            >
              {tenants.map((s) => (
                <option value={s} key={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span class="muted">
            {t('tenant')}: <strong>{tenant}</strong>
          </span>
        )}
        {liveWorkspaces.length > 1 ? (
          <label class="inline">
            {t('workspace')}
            <select value={workspace ?? 'default'} onChange={(e) => setWorkspace((e.target as HTMLSelectElement).value)}>
              {liveWorkspaces.map((w) => (
                <option value={w.slug} key={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span class="muted">
            {t('workspace')}: <strong>{me.workspace.name}</strong>
          </span>
        )}
        <span class="muted">
          {session.user.email} · {t('role')}: <strong data-role={me.role ?? ''}>{term('role', me.role)}</strong>
        </span>
        <span class="spacer" />
        <button type="button" class="secondary small" lang={lang() === 'en' ? 'th' : 'en'} onClick={() => setLang(lang() === 'en' ? 'th' : 'en')}>
          {t('language')}
        </button>
        <button type="button" class="secondary small" onClick={signOut}>
          {t('signOut')}
        </button>
      </header>
      <nav class="sidebar" aria-label={t('mainNav')}>
        <ul>
          {visible.map((r) => (
            <li key={r.id}>
              <a href={`#/${r.id}`} aria-current={r.id === active.id ? 'page' : undefined}>
                {t(r.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {allowed ? <Screen ctx={ctx} key={`${active.id}:${ctx.base}`} /> : <p role="alert">{t('noAccess')}</p>}
      </main>
    </div>
  );
}

document.documentElement.lang = lang();
render(<App />, document.getElementById('app')!);
