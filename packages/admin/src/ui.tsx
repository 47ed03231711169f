import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { isApiError } from './api.js';
import { t, useLang } from './i18n.js';

/** A failed call, as an alert that names what went wrong (the problem's detail and fields). */
export function ErrorBox({ error }: { error: unknown }) {
  useLang();
  if (!error) return null;
  const problem = isApiError(error) ? error.problem : null;
  return (
    <div class="error" role="alert">
      <strong>{t('error')}:</strong> {error instanceof Error ? error.message : String(error)}
      {problem?.errors?.length ? (
        <ul>
          {problem.errors.map((e) => (
            <li key={e.path}>
              <code>{e.path}</code>: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Copies exact text; says so to screen readers too. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  useLang();
  const [done, setDone] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Without clipboard permission, select-and-copy through a temporary field.
      const field = document.createElement('textarea');
      field.value = text;
      document.body.append(field);
      field.select();
      document.execCommand('copy');
      field.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 2000);
  }
  return (
    <button type="button" class="secondary small" onClick={copy} aria-label={`${t('copy')}: ${label}`} data-copy={text}>
      {done ? t('copied') : t('copy')}
      <span class="visually-hidden" aria-live="polite">
        {done ? t('copied') : ''}
      </span>
    </button>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function StatusBadge({ value, label }: { value: string; label: string }) {
  return <span class={`badge badge-${value}`}>{label}</span>;
}

/** Runs an async action, keeping its error and busy state for the form that started it. */
export function useAction() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function run<T>(fn: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { error, busy, run, setError };
}
