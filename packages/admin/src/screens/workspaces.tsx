import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { t, useLang } from '../i18n.js';
import type { WorkspaceJson } from '../types.js';
import { ErrorBox, Section, StatusBadge, useAction } from '../ui.js';

const DEFAULT_ACCENT = '#0f766e';

/** Workspaces (brands): create, rename and recolour, delete with the per-day countdown, restore. */
export function WorkspacesScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [accent, setAccent] = useState(DEFAULT_ACCENT);
  const create = useAction();
  const list = useAction();

  async function submit(e: Event) {
    e.preventDefault();
    const made = await create.run(() => api('POST', `${ctx.tenantBase}/workspaces`, { slug, name, brandAccent: accent }));
    if (made) {
      setSlug('');
      setName('');
      await ctx.reloadWorkspaces();
    }
  }

  async function act(fn: () => Promise<unknown>, question?: string) {
    if (question && !confirm(question)) return;
    await list.run(fn);
    await ctx.reloadWorkspaces();
  }

  return (
    <>
      <h1>{t('ws.title')}</h1>
      <Section title={t('ws.new')} id="ws-new">
        <form class="row" onSubmit={submit}>
          <label>
            {t('ws.slug')}
            <input name="slug" required pattern="[a-z0-9][a-z0-9-]*" maxLength={63} value={slug} onInput={(e) => setSlug((e.target as HTMLInputElement).value)} />
          </label>
          <label class="grow">
            {t('ws.name')}
            <input name="name" required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          <label>
            {t('ws.accent')}
            <input type="color" name="brandAccent" value={accent} onInput={(e) => setAccent((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" disabled={create.busy}>
            {t('create')}
          </button>
        </form>
        <ErrorBox error={create.error} />
      </Section>
      <Section title={t('ws.title')} id="ws-list">
        <ErrorBox error={list.error} />
        <table>
          <thead>
            <tr>
              <th scope="col">{t('ws.name')}</th>
              <th scope="col">{t('ws.slug')}</th>
              <th scope="col">{t('ws.accent')}</th>
              <th scope="col">{t('ws.state')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('ws.delete')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {ctx.workspaces.map((w) => (
              <WorkspaceRow key={`${w.id}:${w.name}:${w.brandAccent}`} ws={w} ctx={ctx} act={act} />
            ))}
          </tbody>
        </table>
      </Section>
    </>
  );
}

function WorkspaceRow({ ws, ctx, act }: { ws: WorkspaceJson; ctx: AppContext; act: (fn: () => Promise<unknown>, question?: string) => Promise<void> }) {
  const [name, setName] = useState(ws.name);
  const [accent, setAccent] = useState(ws.brandAccent ?? DEFAULT_ACCENT);
  const path = `${ctx.tenantBase}/workspaces/${ws.id}`;
  const changed = name !== ws.name || accent !== (ws.brandAccent ?? DEFAULT_ACCENT);
  return (
    <tr data-ws={ws.slug}>
      <td>
        <input aria-label={`${t('ws.name')}: ${ws.slug}`} value={name} disabled={!!ws.deletedAt} maxLength={100} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </td>
      <td>
        <code>{ws.slug}</code>
      </td>
      <td>
        <input type="color" aria-label={`${t('ws.accent')}: ${ws.slug}`} value={accent} disabled={!!ws.deletedAt} onInput={(e) => setAccent((e.target as HTMLInputElement).value)} />
      </td>
      <td>
        {ws.deletedAt ? (
          <StatusBadge value="failed" label={t('ws.daysLeft', { n: ws.daysLeft ?? 0 })} />
        ) : ws.suspendedAt ? (
          <StatusBadge value="failed" label={t('ws.suspended')} />
        ) : (
          <StatusBadge value="indexed" label={ws.isDefault ? t('ws.default') : t('ws.live')} />
        )}
      </td>
      <td class="actions">
        {changed && !ws.deletedAt ? (
          <button type="button" class="small" onClick={() => act(() => api('PATCH', path, { name, brandAccent: accent }))}>
            {t('save')}
          </button>
        ) : null}
        {ws.deletedAt ? (
          <button type="button" class="small" onClick={() => act(() => api('POST', `${path}/restore`))} aria-label={`${t('ws.restore')}: ${ws.name}`}>
            {t('ws.restore')}
          </button>
        ) : ws.isDefault ? null : (
          <button type="button" class="danger small" onClick={() => act(() => api('DELETE', path), t('ws.deleteConfirm'))} aria-label={`${t('ws.delete')}: ${ws.name}`}>
            {t('ws.delete')}
          </button>
        )}
      </td>
    </tr>
  );
}
