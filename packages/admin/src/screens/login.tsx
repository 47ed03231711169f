import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { lang, setLang, t, useLang } from '../i18n.js';
import { ErrorBox, useAction } from '../ui.js';

/** What a tenant's login offers (`GET /api/auth/sso/{tenant}`). */
interface LoginOptions {
  sso: boolean;
  passwordLogin: boolean;
}

const ssoStart = (tenant: string) => `/api/auth/sso/${encodeURIComponent(tenant)}/start`;

/**
 * E-mail and password, and single sign-on: `?tenant=acme` (a bookmark, or back from the
 * provider) shows that tenant's "Sign in with SSO" and hides the password form when the tenant
 * switched it off; without it, the organisation is typed in.
 */
export function LoginScreen({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  useLang();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [tenant, setTenant] = useState(() => new URLSearchParams(location.search).get('tenant') ?? '');
  const [options, setOptions] = useState<LoginOptions | null>(null);
  const action = useAction();
  const named = new URLSearchParams(location.search).get('tenant');

  useEffect(() => {
    if (named) void api<LoginOptions>('GET', `/api/auth/sso/${encodeURIComponent(named)}`).then(setOptions, () => setOptions(null));
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    await action.run(async () => {
      await api('POST', '/api/auth/login', { email, password });
      await onSignedIn();
    });
  }
  function sso(e: Event) {
    e.preventDefault();
    if (tenant.trim()) location.assign(ssoStart(tenant.trim()));
  }
  const passwordForm = options?.passwordLogin !== false;

  return (
    <main id="main" class="login">
      <div class="card">
        <h1 id="login-title">{t('appName')}</h1>
        {named && options?.sso ? (
          <p>
            <a class="button" href={ssoStart(named)} data-sso-start="">
              {t('sso.signIn')}
            </a>
          </p>
        ) : null}
        {passwordForm ? (
          <form onSubmit={submit} aria-labelledby="login-title">
            <label>
              {t('email')}
              <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
            </label>
            <label>
              {t('password')}
              <input type="password" name="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
            </label>
            <ErrorBox error={action.error} />
            <div class="row">
              <button type="submit" disabled={action.busy}>
                {t('signIn')}
              </button>
            </div>
          </form>
        ) : (
          <p role="status">{t('sso.passwordOff')}</p>
        )}
        {named && options?.sso ? null : (
          <form class="row" onSubmit={sso} aria-label={t('sso.or')}>
            <label class="grow">
              {t('sso.tenantSlug')}
              <input name="tenant" autoComplete="organization" value={tenant} onInput={(e) => setTenant((e.target as HTMLInputElement).value)} />
            </label>
            <button type="submit" class="secondary">
              {t('sso.signIn')}
            </button>
          </form>
        )}
        <div class="row">
          <span class="spacer" />
          <button type="button" class="secondary small" lang={lang() === 'en' ? 'th' : 'en'} onClick={() => setLang(lang() === 'en' ? 'th' : 'en')}>
            {t('language')}
          </button>
        </div>
      </div>
    </main>
  );
}
