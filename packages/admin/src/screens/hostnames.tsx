import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { formatDate, lang, t, useLang } from '../i18n.js';
import { CopyButton, ErrorBox, Section, StatusBadge, useAction } from '../ui.js';

interface Hostname {
  id: string;
  hostname: string;
  status: string;
  statusLabel: string;
  verificationMessage: { en: string; th: string } | null;
  dns: { cname: { name: string; target: string }; txt: { name: string; value: string }; note: string };
  stale: boolean;
  lastCheckedAt: string | null;
}

const POLL_MS = 15_000;

/** Custom hostnames: add, the DNS records to publish (exact values, copy buttons), live status, remove. */
export function HostnamesScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const [items, setItems] = useState<Hostname[] | null>(null);
  const [hostname, setHostname] = useState('');
  const list = useAction();
  const add = useAction();
  const path = `${ctx.tenantBase}/tenant/custom-hostnames`;

  const load = () => list.run(async () => setItems((await api<{ data: Hostname[] }>('GET', path)).data));
  useEffect(() => {
    void load();
    // Live status: re-read while the page is open (the server polls the edge every 5 minutes too).
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    if (await add.run(() => api('POST', path, { hostname: hostname.trim() }))) {
      setHostname('');
      await load();
    }
  }
  async function act(fn: () => Promise<unknown>, question?: string) {
    if (question && !confirm(question)) return;
    await list.run(fn);
    await load();
  }

  return (
    <>
      <h1>{t('host.title')}</h1>
      <Section title={t('host.add')} id="host-add">
        <form class="row" onSubmit={submit}>
          <label class="grow">
            {t('host.hostname')}
            <input name="hostname" required placeholder="help.example.com" value={hostname} onInput={(e) => setHostname((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" disabled={add.busy}>
            {t('host.add')}
          </button>
        </form>
        <ErrorBox error={add.error} />
      </Section>
      <ErrorBox error={list.error} />
      {items?.length === 0 ? <p>{t('host.empty')}</p> : null}
      {items?.map((h) => (
        <section class="card" key={h.id} aria-labelledby={`h-${h.id}`} data-hostname={h.hostname}>
          <div class="row">
            <h2 id={`h-${h.id}`}>{h.hostname}</h2>
            <StatusBadge value={h.status.toLowerCase()} label={h.statusLabel} />
            <span class="spacer" />
            <button type="button" class="secondary small" onClick={() => act(() => api('POST', `${path}/${h.id}`))} aria-label={`${t('host.check')}: ${h.hostname}`}>
              {t('host.check')}
            </button>
            <button type="button" class="danger small" onClick={() => act(() => api('DELETE', `${path}/${h.id}`), t('host.removeConfirm'))} aria-label={`${t('remove')}: ${h.hostname}`}>
              {t('remove')}
            </button>
          </div>
          {h.verificationMessage ? (
            <p class="inline-error" role="alert">
              {h.verificationMessage[lang()]}
            </p>
          ) : null}
          <p class="muted">
            {t('host.lastChecked')}: {formatDate(h.lastCheckedAt)}
          </p>
          <h3>{t('host.dns')}</h3>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('host.type')}</th>
                <th scope="col">{t('host.nameCol')}</th>
                <th scope="col">{t('host.value')}</th>
              </tr>
            </thead>
            <tbody>
              {[
                ['CNAME', h.dns.cname.name, h.dns.cname.target],
                ['TXT', h.dns.txt.name, h.dns.txt.value],
              ].map(([type, name, value]) => (
                <tr key={type}>
                  <td>{type}</td>
                  <td>
                    <code>{name}</code> <CopyButton text={name!} label={`${type} ${t('host.nameCol')}`} />
                  </td>
                  <td>
                    <code class="break">{value}</code> <CopyButton text={value!} label={`${type} ${t('host.value')}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted">{h.dns.note}</p>
        </section>
      ))}
    </>
  );
}
