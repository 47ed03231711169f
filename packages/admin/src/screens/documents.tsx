import { useEffect, useRef, useState } from 'preact/hooks';
import { api, upload } from '../api.js';
import type { AppContext } from '../context.js';
import { formatDate, t, useLang, type MessageKey } from '../i18n.js';
import { renderMarkdown } from '../markdown.js';
import type { DocJson, DocStatus, Page } from '../types.js';
import { ErrorBox, Section, StatusBadge, useAction } from '../ui.js';
import { DRAFT_KEY } from './gaps.js';

const STATUSES: DocStatus[] = ['pending', 'indexing', 'indexed', 'failed'];
const FIELDS = 'title,status,error,publicSurfaces,updatedAt';
const statusLabel = (s: DocStatus) => t(`docs.status.${s}` as MessageKey);

/** Documents: list with status and filters, the Help center toggle, upload, re-index, edit with preview. */
export function DocumentsScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const canWrite = ctx.can('write');
  const [docs, setDocs] = useState<DocJson[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'' | DocStatus>('');
  const [text, setText] = useState('');
  // A draft handed over by another screen ("write an article" from a content gap) opens the editor.
  const [draft] = useState(takeDraft);
  const [editing, setEditing] = useState<DocJson | 'new' | null>(draft ? 'new' : null);
  const list = useAction();

  async function load(more = false) {
    await list.run(async () => {
      const page = await api<Page<DocJson>>('GET', `${ctx.base}/docs?limit=100&fields=${FIELDS}${more && cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      setDocs(more && docs ? [...docs, ...page.data] : page.data);
      setCursor(page.nextCursor);
    });
  }
  useEffect(() => {
    void load();
  }, []);

  // While documents are indexing, re-read the list (bounded: every 2 s, at most 60 times).
  const polls = useRef(0);
  useEffect(() => {
    if (!docs?.some((d) => d.status === 'pending' || d.status === 'indexing') || polls.current >= 60) return;
    const timer = setTimeout(() => {
      polls.current += 1;
      void load();
    }, 2000);
    return () => clearTimeout(timer);
  }, [docs]);

  async function toggleHelpCenter(doc: DocJson) {
    const publicSurfaces = doc.publicSurfaces.includes('help_center') ? doc.publicSurfaces.filter((s) => s !== 'help_center') : [...doc.publicSurfaces, 'help_center'];
    const updated = await list.run(() => api<DocJson>('PATCH', `${ctx.base}/docs/${doc.id}`, { publicSurfaces }));
    if (updated && docs) setDocs(docs.map((d) => (d.id === doc.id ? { ...d, ...updated } : d)));
  }

  async function reindex(doc: DocJson) {
    await list.run(() => api('POST', `${ctx.base}/docs/${doc.id}/reindex`));
    polls.current = 0;
    await load();
  }

  async function remove(doc: DocJson) {
    if (!confirm(t('docs.deleteConfirm'))) return;
    await list.run(() => api('DELETE', `${ctx.base}/docs/${doc.id}`));
    await load();
  }

  if (editing) {
    return (
      <Editor
        ctx={ctx}
        doc={editing === 'new' ? null : editing}
        draft={editing === 'new' ? draft : null}
        onClose={async () => {
          setEditing(null);
          polls.current = 0;
          await load();
        }}
      />
    );
  }

  const shown = (docs ?? []).filter((d) => (!status || d.status === status) && d.title.toLowerCase().includes(text.trim().toLowerCase()));

  return (
    <>
      <h1>{t('docs.title')}</h1>
      {canWrite ? (
        <Uploader
          ctx={ctx}
          onUploaded={() => {
            polls.current = 0;
            void load();
          }}
        />
      ) : null}
      <Section title={t('docs.title')} id="docs-list">
        <div class="row filters">
          <label class="inline">
            {t('docs.filterStatus')}
            <select value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value as DocStatus | '')}>
              <option value="">{t('docs.all')}</option>
              {STATUSES.map((s) => (
                <option value={s} key={s}>
                  {statusLabel(s)}
                </option>
              ))}
            </select>
          </label>
          <label class="inline">
            {t('docs.filterText')}
            <input type="search" value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
          </label>
          <span class="spacer" />
          {canWrite ? (
            <button type="button" onClick={() => setEditing('new')}>
              {t('docs.new')}
            </button>
          ) : null}
        </div>
        <ErrorBox error={list.error} />
        {docs === null ? (
          <p>{t('loading')}</p>
        ) : shown.length === 0 ? (
          <p>{t('docs.empty')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('docs.docTitle')}</th>
                <th scope="col">{t('docs.filterStatus')}</th>
                <th scope="col">{t('docs.helpCenter')}</th>
                <th scope="col">{t('docs.updated')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('docs.edit')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((d) => (
                <tr key={d.id} data-doc-id={d.id}>
                  <td>{d.title}</td>
                  <td>
                    <StatusBadge value={d.status} label={statusLabel(d.status)} />
                    {d.status === 'failed' && d.error ? <p class="inline-error">{d.error}</p> : null}
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      class="switch"
                      checked={d.publicSurfaces.includes('help_center')}
                      disabled={!canWrite}
                      aria-label={t('docs.helpCenterOf', { title: d.title })}
                      onChange={() => toggleHelpCenter(d)}
                    />
                  </td>
                  <td>{formatDate(d.updatedAt)}</td>
                  <td class="actions">
                    {canWrite ? (
                      <>
                        <button type="button" class="secondary small" onClick={async () => setEditing(await api<DocJson>('GET', `${ctx.base}/docs/${d.id}`))} aria-label={`${t('docs.edit')}: ${d.title}`}>
                          {t('docs.edit')}
                        </button>
                        {d.status === 'failed' ? (
                          <button type="button" class="small" onClick={() => reindex(d)} aria-label={`${t('docs.reindex')}: ${d.title}`}>
                            {t('docs.reindex')}
                          </button>
                        ) : null}
                        <button type="button" class="danger small" onClick={() => remove(d)} aria-label={`${t('docs.delete')}: ${d.title}`}>
                          {t('docs.delete')}
                        </button>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {cursor ? (
          <button type="button" class="secondary" onClick={() => load(true)}>
            {t('docs.more')}
          </button>
        ) : null}
      </Section>
    </>
  );
}

function Uploader({ ctx, onUploaded }: { ctx: AppContext; onUploaded: () => void }) {
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const [over, setOver] = useState(false);
  const [helpCenter, setHelpCenter] = useState(false);
  const action = useAction();

  async function send(files: FileList | null) {
    if (!files || files.length === 0) return;
    const form = new FormData();
    for (const file of Array.from(files)) form.append('file', file);
    if (helpCenter) form.append('publicSurfaces', 'help_center');
    setDone(null);
    setProgress(0);
    const ok = await action.run(() => upload(`${ctx.base}/docs/upload`, form, setProgress));
    setProgress(null);
    if (ok !== undefined) {
      setDone(files.length);
      onUploaded();
    }
  }

  return (
    <Section title={t('docs.upload')} id="docs-upload">
      <label
        class={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          void send(e.dataTransfer?.files ?? null);
        }}
      >
        <span>{t('docs.drop')}</span>
        <input type="file" name="file" multiple accept=".md,.markdown,.txt,.html,.htm,.pdf" onChange={(e) => send((e.target as HTMLInputElement).files)} />
      </label>
      <label class="check">
        <input type="checkbox" checked={helpCenter} onChange={() => setHelpCenter(!helpCenter)} /> {t('docs.helpCenter')}
      </label>
      {progress !== null ? (
        <div>
          <progress max={1} value={progress} aria-label={t('docs.uploading', { pct: Math.round(progress * 100) })} />
          <span>{t('docs.uploading', { pct: Math.round(progress * 100) })}</span>
        </div>
      ) : null}
      <p role="status">{done !== null ? t('docs.uploaded', { n: done }) : ''}</p>
      <ErrorBox error={action.error} />
    </Section>
  );
}

/** The draft another screen left for a new article, taken once. */
function takeDraft(): { title: string; contentMd: string } | null {
  const raw = sessionStorage.getItem(DRAFT_KEY);
  if (!raw) return null;
  sessionStorage.removeItem(DRAFT_KEY);
  try {
    const draft = JSON.parse(raw) as { title?: unknown; contentMd?: unknown };
    return { title: String(draft.title ?? ''), contentMd: String(draft.contentMd ?? '') };
  } catch {
    return null;
  }
}

function Editor({ ctx, doc, draft, onClose }: { ctx: AppContext; doc: DocJson | null; draft?: { title: string; contentMd: string } | null; onClose: () => Promise<void> }) {
  useLang();
  const [title, setTitle] = useState(doc?.title ?? draft?.title ?? '');
  const [content, setContent] = useState(doc?.contentMd ?? draft?.contentMd ?? '');
  const [helpCenter, setHelpCenter] = useState(doc?.publicSurfaces.includes('help_center') ?? false);
  const action = useAction();

  async function save(e: Event) {
    e.preventDefault();
    const publicSurfaces = helpCenter ? ['help_center'] : [];
    const saved = await action.run(() => (doc ? api('PATCH', `${ctx.base}/docs/${doc.id}`, { title, contentMd: content, publicSurfaces }) : api('POST', `${ctx.base}/docs`, { title, contentMd: content, publicSurfaces })));
    if (saved) await onClose();
  }

  return (
    <>
      <h1>{doc ? doc.title : t('docs.new')}</h1>
      <form class="card stack" onSubmit={save}>
        <label>
          {t('docs.docTitle')}
          <input name="title" required maxLength={500} value={title} onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />
        </label>
        <label class="check">
          <input type="checkbox" checked={helpCenter} onChange={() => setHelpCenter(!helpCenter)} /> {t('docs.helpCenter')}
        </label>
        <div class="split">
          <label>
            {t('docs.content')}
            <textarea name="contentMd" rows={18} required value={content} onInput={(e) => setContent((e.target as HTMLTextAreaElement).value)} />
          </label>
          <div>
            <h2 class="label">{t('docs.preview')}</h2>
            <div class="preview prose" dangerouslySetInnerHTML={{ __html: renderMarkdown(content) }} />
          </div>
        </div>
        <ErrorBox error={action.error} />
        <div class="row">
          <button type="submit" disabled={action.busy}>
            {t('save')}
          </button>
          <button type="button" class="secondary" onClick={() => onClose()}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </>
  );
}
