import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { formatDate, t, term, useLang } from '../i18n.js';
import type { ApiKeyJson, ApiKeyScope } from '../types.js';
import { CopyButton, ErrorBox, Section, StatusBadge, useAction } from '../ui.js';

const SCOPES: ApiKeyScope[] = ['read', 'write', 'mcp', 'admin'];

/** Settings → API Keys: create (secret once), list, revoke; allowed origins for publishable keys. */
export function KeysScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const [keys, setKeys] = useState<ApiKeyJson[] | null>(null);
  const [created, setCreated] = useState<ApiKeyJson | null>(null);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'secret' | 'publishable'>('secret');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['read']);
  const [workspace, setWorkspace] = useState('');
  const [origins, setOrigins] = useState('');
  const [originsSaved, setOriginsSaved] = useState(false);
  const list = useAction();
  const create = useAction();
  const originsAction = useAction();

  const load = () => list.run(async () => setKeys((await api<{ data: ApiKeyJson[] }>('GET', `${ctx.tenantBase}/api-keys`)).data));
  useEffect(() => {
    void load();
    void originsAction.run(async () => setOrigins((await api<{ allowedOrigins: string[] }>('GET', `${ctx.tenantBase}/tenant/settings`)).allowedOrigins.join('\n')));
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    const body = { name: name || 'API key', kind, scopes: kind === 'publishable' ? ['read'] : scopes, ...(workspace ? { workspaceSlug: workspace } : {}) };
    const key = await create.run(() => api<ApiKeyJson>('POST', `${ctx.tenantBase}/api-keys`, body));
    if (key) {
      setCreated(key);
      setName('');
      await load();
      requestAnimationFrame(() => document.getElementById('new-key')?.focus());
    }
  }

  async function revoke(key: ApiKeyJson) {
    if (!confirm(t('keys.revokeConfirm'))) return;
    await list.run(() => api('DELETE', `${ctx.tenantBase}/api-keys/${key.id}`));
    await load();
  }

  async function saveOrigins(e: Event) {
    e.preventDefault();
    setOriginsSaved(false);
    const allowedOrigins = origins.split(/\s+/).filter(Boolean);
    const saved = await originsAction.run(() => api<{ allowedOrigins: string[] }>('PATCH', `${ctx.tenantBase}/tenant/settings`, { allowedOrigins }));
    if (saved) {
      setOrigins(saved.allowedOrigins.join('\n'));
      setOriginsSaved(true);
    }
  }

  const toggle = (scope: ApiKeyScope) => setScopes(scopes.includes(scope) ? scopes.filter((s) => s !== scope) : [...scopes, scope]);
  const live = ctx.workspaces.filter((w) => !w.deletedAt);

  return (
    <>
      <h1>{t('keys.title')}</h1>
      {created?.key ? (
        <div class="card secret" role="status">
          <h2 id="new-key" tabIndex={-1}>
            {t('keys.newKey')}
          </h2>
          <p>{t('keys.created')}</p>
          <div class="row">
            <code class="key" data-testid="new-key">
              {created.key}
            </code>
            <CopyButton text={created.key} label={t('keys.newKey')} />
          </div>
          <button type="button" class="secondary" onClick={() => setCreated(null)}>
            {t('keys.done')}
          </button>
        </div>
      ) : null}
      <Section title={t('keys.new')} id="keys-new">
        <form onSubmit={submit} class="stack">
          <label>
            {t('keys.name')}
            <input name="name" maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          <fieldset>
            <legend>{t('keys.kind')}</legend>
            <label class="check">
              <input type="radio" name="kind" value="secret" checked={kind === 'secret'} onChange={() => setKind('secret')} /> {t('keys.secret')}
            </label>
            <label class="check">
              <input type="radio" name="kind" value="publishable" checked={kind === 'publishable'} onChange={() => {
                  setKind('publishable');
                  // A publishable key is bound to one workspace: never "all".
                  if (!workspace) setWorkspace((live[0] ?? ctx.me.workspace).slug);
                }} /> {t('keys.publishable')}
            </label>
          </fieldset>
          {kind === 'publishable' ? (
            <p class="muted" data-testid="publishable-note">
              {t('keys.publishableNote')}
            </p>
          ) : null}
          {kind === 'secret' ? (
            <fieldset>
              <legend>{t('keys.scopes')}</legend>
              {SCOPES.map((s) => (
                <label class="check" key={s}>
                  <input type="checkbox" name="scopes" value={s} checked={scopes.includes(s)} onChange={() => toggle(s)} /> <code>{s}</code>
                </label>
              ))}
            </fieldset>
          ) : null}
          <label>
            {t('keys.workspace')}
            <select name="workspace" value={workspace} onChange={(e) => setWorkspace((e.target as HTMLSelectElement).value)}>
              {kind === 'secret' ? <option value="">{t('keys.allWorkspaces')}</option> : null}
              {(live.length ? live : [ctx.me.workspace]).map((w) => (
                <option value={w.slug} key={w.slug}>
                  {w.name} ({w.slug})
                </option>
              ))}
            </select>
          </label>
          <ErrorBox error={create.error} />
          <div>
            <button type="submit" disabled={create.busy}>
              {t('create')}
            </button>
          </div>
        </form>
      </Section>
      <Section title={t('keys.list')} id="keys-list">
        <ErrorBox error={list.error} />
        {keys ? (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('keys.name')}</th>
                <th scope="col">{t('keys.prefix')}</th>
                <th scope="col">{t('keys.kind')}</th>
                <th scope="col">{t('keys.scopes')}</th>
                <th scope="col">{t('keys.workspace')}</th>
                <th scope="col">{t('keys.createdAt')}</th>
                <th scope="col">{t('keys.lastUsed')}</th>
                <th scope="col">{t('keys.status')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('keys.revoke')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key-id={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{term('kind', k.kind)}</td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>{k.workspaceSlug ?? t('keys.allWorkspaces')}</td>
                  <td>{formatDate(k.createdAt)}</td>
                  <td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : t('keys.neverUsed')}</td>
                  <td>{k.revokedAt ? <StatusBadge value="failed" label={`${t('keys.revoked')} ${formatDate(k.revokedAt)}`} /> : <StatusBadge value="indexed" label={t('keys.active')} />}</td>
                  <td>
                    {k.revokedAt ? null : (
                      <button type="button" class="danger small" onClick={() => revoke(k)} aria-label={`${t('keys.revoke')}: ${k.name} (${k.prefix}…)`}>
                        {t('keys.revoke')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>{t('loading')}</p>
        )}
      </Section>
      <Section title={t('keys.origins')} id="keys-origins">
        <form onSubmit={saveOrigins} class="stack">
          <label>
            {t('keys.origins')}
            <textarea name="origins" rows={3} aria-describedby="origins-help" value={origins} onInput={(e) => setOrigins((e.target as HTMLTextAreaElement).value)} />
          </label>
          <p id="origins-help" class="muted">
            {t('keys.originsHelp')}
          </p>
          <ErrorBox error={originsAction.error} />
          <div class="row">
            <button type="submit" disabled={originsAction.busy}>
              {t('keys.saveOrigins')}
            </button>
            <span role="status">{originsSaved ? t('saved') : ''}</span>
          </div>
        </form>
      </Section>
    </>
  );
}
