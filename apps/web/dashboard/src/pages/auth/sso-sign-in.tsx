import { EmailInput } from '@esign/core/schemas/auth';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { type DashboardMessageKey, msg } from '../../messages/index.ts';
import { nextPath } from '../../session.tsx';
import { Button, ErrorNote, TextField } from '../../ui.tsx';

// Single sign-on (issue 45 item 4): the work email finds the account by its domain, and the
// browser goes to /sso/start, which sends it on to the company's identity provider. The provider
// sends it back to /sso/callback, which opens the session or returns here with ?sso_error=.

const SSO_ERRORS: Record<string, DashboardMessageKey> = {
  unknown_domain: 'auth.sso.error.unknown_domain',
  expired: 'auth.sso.error.expired',
  provider: 'auth.sso.error.provider',
  other_domain: 'auth.sso.error.other_domain',
  unverified: 'auth.sso.error.unverified',
  not_allowed: 'auth.sso.error.not_allowed',
};

export function SsoSignIn() {
  const location = useLocation();
  const failure = new URLSearchParams(location.search).get('sso_error');
  const [open, setOpen] = useState(failure !== null);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  if (!open) {
    return (
      <div className="alt-sign-in">
        <Button onClick={() => setOpen(true)}>{msg('auth.sso.button')}</Button>
      </div>
    );
  }
  return (
    <form
      className="alt-sign-in"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = EmailInput.safeParse({ email });
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message);
          return;
        }
        // A navigation, not a form submission: the page's CSP (form-action 'self') would stop the
        // redirect on to the provider.
        const query = new URLSearchParams({ email: parsed.data.email, next: nextPath(location.search) });
        window.location.assign(`/sso/start?${query}`);
      }}
    >
      <p className="hint">{msg('auth.sso.intro')}</p>
      {failure !== null ? (
        <ErrorNote error={{ message: msg(SSO_ERRORS[failure] ?? 'auth.sso.error.provider') }} />
      ) : null}
      <TextField
        label={msg('auth.sso.email')}
        type="email"
        autoComplete="email"
        value={email}
        error={error}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Button type="submit" variant="primary">
        {msg('auth.sso.continue')}
      </Button>
    </form>
  );
}
