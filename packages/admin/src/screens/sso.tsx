import { useEffect, useState } from 'preact/hooks';
import { api, isApiError } from '../api.js';
import type { AppContext } from '../context.js';
import { formatDate, t, useLang } from '../i18n.js';
import { CopyButton, ErrorBox, Section, useAction } from '../ui.js';

type SsoRole = 'admin' | 'editor' | 'viewer';
interface SsoConfig {
  issuer: string;
  clientId: string;
  clientSecretHint: string;
  allowedDomains: string[];
  roleClaim: string | null;
  roleMap: Record<string, SsoRole>;
  defaultRole: SsoRole | null;
  passwordLogin: boolean;
  redirectPath: string;
  updatedAt: string;
}

const ROLES: SsoRole[] = ['admin', 'editor', 'viewer'];

/** `value = role` lines ↔ the role map (the server names a bad role by its field). */
const mapText = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
function parseMap(text: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.lastIndexOf('=');
    if (at > 0) map[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return map;
}

/** The tenant's single sign-on provider: settings, role mapping, and the password sign-in switch. */
export function SsoScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const path = `${ctx.tenantBase}/tenant/sso`;
  const [config, setConfig] = useState<SsoConfig | null | undefined>(undefined);
  const [form, setForm] = useState({ issuer: '', clientId: '', clientSecret: '', domains: '', roleClaim: '', roleMap: '', defaultRole: 'viewer', passwordLogin: true });
  const [saved, setSaved] = useState(false);
  const load = useAction();
  const save = useAction();

  function fill(c: SsoConfig | null) {
    setConfig(c);
    if (c) setForm({ issuer: c.issuer, clientId: c.clientId, clientSecret: '', domains: c.allowedDomains.join(', '), roleClaim: c.roleClaim ?? '', roleMap: mapText(c.roleMap), defaultRole: c.defaultRole ?? '', passwordLogin: c.passwordLogin });
  }

  useEffect(() => {
    void load.run(async () => {
      try {
        fill(await api<SsoConfig>('GET', path));
      } catch (e) {
        if (isApiError(e) && e.problem.status === 404) fill(null);
        else throw e;
      }
    });
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    setSaved(false);
    const body = {
      issuer: form.issuer.trim(),
      clientId: form.clientId.trim(),
      ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
      allowedDomains: form.domains.split(/[,\s]+/).filter(Boolean),
      roleClaim: form.roleClaim.trim() || null,
      roleMap: parseMap(form.roleMap),
      defaultRole: form.defaultRole || null,
      passwordLogin: form.passwordLogin,
    };
    const next = await save.run(() => api<SsoConfig>('PUT', path, body));
    if (next) {
      fill(next);
      setSaved(true);
    }
  }

  async function remove() {
    if (!confirm(t('sso.removeConfirm'))) return;
    if ((await save.run(() => api('DELETE', path))) !== undefined) fill(null);
  }

  const set = (key: keyof typeof form) => (e: Event) => {
    const target = e.target as HTMLInputElement;
    setForm({ ...form, [key]: target.type === 'checkbox' ? target.checked : target.value });
  };
  const redirect = `${location.origin}${config?.redirectPath ?? '/api/auth/sso/callback'}`;

  return (
    <>
      <h1>{t('sso.title')}</h1>
      <p class="muted">{t('sso.intro')}</p>
      <ErrorBox error={load.error} />
      {config === null ? <p>{t('sso.notSet')}</p> : null}
      {config !== undefined ? (
        <Section title={t('sso.title')} id="sso-settings">
          <p>
            {t('sso.redirect')}: <code>{redirect}</code> <CopyButton text={redirect} label={t('sso.redirect')} />
          </p>
          <form onSubmit={submit}>
            <label>
              {t('sso.issuer')}
              <input name="issuer" type="url" required placeholder="https://login.example.com" value={form.issuer} onInput={set('issuer')} />
            </label>
            <label>
              {t('sso.clientId')}
              <input name="clientId" required value={form.clientId} onInput={set('clientId')} />
            </label>
            <label>
              {t('sso.clientSecret')}
              <input name="clientSecret" type="password" autoComplete="off" required={!config} placeholder={config ? t('sso.secretKept', { hint: config.clientSecretHint }) : ''} value={form.clientSecret} onInput={set('clientSecret')} />
            </label>
            <label>
              {t('sso.domains')}
              <input name="allowedDomains" required placeholder="example.com" value={form.domains} onInput={set('domains')} />
            </label>
            <label>
              {t('sso.roleClaim')}
              <input name="roleClaim" value={form.roleClaim} onInput={set('roleClaim')} />
            </label>
            <label>
              {t('sso.roleMap')}
              <textarea name="roleMap" rows={4} placeholder="panya-admins = admin" value={form.roleMap} onInput={set('roleMap')} />
            </label>
            <label>
              {t('sso.defaultRole')}
              <select name="defaultRole" value={form.defaultRole} onChange={set('defaultRole')}>
                {ROLES.map((r) => (
                  <option value={r} key={r}>
                    {t(`role.${r}`)}
                  </option>
                ))}
                <option value="">{t('sso.refuse')}</option>
              </select>
            </label>
            <label class="inline">
              <input name="passwordLogin" type="checkbox" checked={form.passwordLogin} onChange={set('passwordLogin')} /> {t('sso.passwordLogin')}
            </label>
            <p class="muted">{t('sso.passwordHint')}</p>
            <ErrorBox error={save.error} />
            <div class="row">
              <button type="submit" disabled={save.busy}>
                {t('save')}
              </button>
              {saved ? (
                <span role="status" class="muted">
                  {t('saved')}
                </span>
              ) : null}
              <span class="spacer" />
              {config ? (
                <>
                  <span class="muted">{formatDate(config.updatedAt)}</span>
                  <button type="button" class="danger small" onClick={remove}>
                    {t('remove')}
                  </button>
                </>
              ) : null}
            </div>
          </form>
        </Section>
      ) : null}
    </>
  );
}
