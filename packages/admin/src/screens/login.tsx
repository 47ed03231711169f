import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { lang, setLang, t, useLang } from '../i18n.js';
import { ErrorBox, useAction } from '../ui.js';

export function LoginScreen({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  useLang();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  async function submit(e: Event) {
    e.preventDefault();
    await action.run(async () => {
      await api('POST', '/api/auth/login', { email, password });
      await onSignedIn();
    });
  }
  return (
    <main id="main" class="login">
      <form class="card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">{t('appName')}</h1>
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
          <span class="spacer" />
          <button type="button" class="secondary small" lang={lang() === 'en' ? 'th' : 'en'} onClick={() => setLang(lang() === 'en' ? 'th' : 'en')}>
            {t('language')}
          </button>
        </div>
      </form>
    </main>
  );
}
