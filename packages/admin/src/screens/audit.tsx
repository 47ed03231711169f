import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { formatDate, t, useLang } from '../i18n.js';
import { ErrorBox, Section, useAction } from '../ui.js';

interface AuditEntry {
  id: string;
  seq: number | null;
  type: string;
  actor: string;
  actorKind: string;
  subjectId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: string;
}

interface AuditPage {
  data: AuditEntry[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The fields that changed between the before and after summaries, as `field: old → new`. */
function changes(entry: AuditEntry): string[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const show = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) => `${k}: ${show(before[k])} → ${show(after[k])}`);
}

/** The tenant's audit log: who changed what and when, newest first, filtered by kind of change. */
export function AuditScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [type, setType] = useState('');
  const list = useAction();
  const path = `${ctx.tenantBase}/audit`;

  const load = (more: boolean) =>
    list.run(async () => {
      const query = new URLSearchParams({ limit: '50', ...(type.trim() ? { type: type.trim() } : {}), ...(more && cursor ? { cursor } : {}) });
      const page = await api<AuditPage>('GET', `${path}?${query}`);
      setEntries((prev) => (more && prev ? [...prev, ...page.data] : page.data));
      setCursor(page.nextCursor);
    });
  useEffect(() => void load(false), []);

  return (
    <>
      <h1>{t('audit.title')}</h1>
      <p>{t('audit.intro')}</p>
      <Section title={t('audit.filter')} id="audit-filter">
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void load(false);
          }}
        >
          <label class="grow">
            {t('audit.type')}
            <input name="type" placeholder="document.updated" value={type} onInput={(e) => setType((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" disabled={list.busy}>
            {t('refresh')}
          </button>
          <a class="button secondary" href={`${path}/export`} download="audit.jsonl">
            {t('audit.export')}
          </a>
        </form>
      </Section>
      <ErrorBox error={list.error} />
      {entries?.length === 0 ? <p>{t('audit.empty')}</p> : null}
      {entries && entries.length > 0 ? (
        <table aria-label={t('audit.title')}>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('audit.when')}</th>
              <th scope="col">{t('audit.type')}</th>
              <th scope="col">{t('audit.actor')}</th>
              <th scope="col">{t('audit.subject')}</th>
              <th scope="col">{t('audit.change')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-audit-type={e.type}>
                <td>{e.seq ?? '—'}</td>
                <td>{formatDate(e.createdAt)}</td>
                <td>
                  <code>{e.type}</code>
                </td>
                <td>
                  {t(`audit.actor.${e.actorKind}` as 'audit.actor.user')} <code>{e.actor}</code>
                </td>
                <td>{e.subjectId ? <code>{e.subjectId}</code> : '—'}</td>
                <td>
                  {changes(e).map((line) => (
                    <div key={line}>{line}</div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {cursor ? (
        <button type="button" class="secondary" disabled={list.busy} onClick={() => void load(true)}>
          {t('audit.more')}
        </button>
      ) : null}
    </>
  );
}
