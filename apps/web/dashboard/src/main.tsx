import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { dashboardLocale } from './messages/index.ts';
import { PageTitle, type TitleKey } from './page-title.tsx';
import { AccountPage } from './pages/account.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { AcceptInvitePage } from './pages/auth/accept-invite.tsx';
import { LinkSignInPage } from './pages/auth/link-sign-in.tsx';
import { LoginPage } from './pages/auth/login.tsx';
import { ResetPasswordPage } from './pages/auth/reset-password.tsx';
import { SignUpPage } from './pages/auth/sign-up.tsx';
import { BillingPage } from './pages/billing.tsx';
import { BrandsPage } from './pages/brands.tsx';
import { BulkSendPage } from './pages/bulk-send.tsx';
import { ConnectedAppsPage } from './pages/connected-apps.tsx';
import { EditorPage } from './pages/editor/editor-page.tsx';
import { EmbedSettingsPage } from './pages/embed-settings.tsx';
import { NotFoundPage } from './pages/not-found.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { RequestPage } from './pages/request.tsx';
import { RequestsPage } from './pages/requests.tsx';
import { SendPage } from './pages/send.tsx';
import { SigningLinkPage } from './pages/signing-link.tsx';
import { TeamPage } from './pages/team.tsx';
import { TemplatesPage } from './pages/templates.tsx';
import { VerifyPage } from './pages/verify.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { RequireSession, type Session, sessionQuery } from './session.tsx';
import { Shell } from './shell.tsx';
import { queryClient, whenSignedOut } from './trpc.ts';
import { Toasts } from './ui.tsx';
import './styles.css';
import { background } from './background.ts';

// A call answered `unauthenticated` (session expired or signed out elsewhere): look again, and the
// session guard sends the person to the sign-in page.
whenSignedOut(() => background(queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey })));

/** A page with its own title in the browser tab. */
const titled = (title: TitleKey, page: React.ReactNode) => <PageTitle title={title}>{page}</PageTitle>;

const signedIn = (title: TitleKey, page: (session: Session) => React.ReactNode) =>
  titled(
    title,
    <RequireSession>{(session) => <Shell session={session}>{page(session)}</Shell>}</RequireSession>,
  );

function App() {
  return (
    <Routes>
      <Route path="/login" element={titled('title.sign_in', <LoginPage />)} />
      <Route path="/login/link" element={titled('title.sign_in_link', <LinkSignInPage />)} />
      <Route path="/reset-password" element={titled('title.reset_password', <ResetPasswordPage />)} />
      <Route path="/invite" element={titled('title.invite', <AcceptInvitePage />)} />
      <Route path="/signup" element={titled('title.sign_up', <SignUpPage />)} />
      <Route path="/verify" element={titled('title.verify', <VerifyPage />)} />
      <Route path="/" element={signedIn('nav.overview', (s) => <OverviewPage session={s} />)} />
      <Route path="/templates" element={signedIn('nav.templates', (s) => <TemplatesPage session={s} />)} />
      <Route
        path="/templates/:id/edit"
        element={titled('title.editor', <RequireSession>{(s) => <EditorPage session={s} />}</RequireSession>)}
      />
      <Route path="/send" element={signedIn('nav.send', (s) => <SendPage session={s} />)} />
      <Route path="/requests" element={signedIn('nav.requests', () => <RequestsPage />)} />
      <Route path="/requests/:id" element={signedIn('title.request', (s) => <RequestPage session={s} />)} />
      <Route path="/connected-apps" element={signedIn('nav.connected_apps', () => <ConnectedAppsPage />)} />
      <Route path="/api-keys" element={signedIn('nav.api_keys', (s) => <ApiKeysPage session={s} />)} />
      <Route path="/webhooks" element={signedIn('nav.webhooks', (s) => <WebhooksPage session={s} />)} />
      <Route path="/team" element={signedIn('nav.team', (s) => <TeamPage session={s} />)} />
      <Route path="/account" element={signedIn('nav.account', (s) => <AccountPage session={s} />)} />
      <Route path="/billing" element={signedIn('nav.billing', (s) => <BillingPage session={s} />)} />
      <Route
        path="/templates/:id/link"
        element={signedIn('title.signing_link', (s) => <SigningLinkPage session={s} />)}
      />
      <Route path="/bulk" element={signedIn('nav.bulk', (s) => <BulkSendPage session={s} />)} />
      <Route path="/brands" element={signedIn('nav.brands', (s) => <BrandsPage session={s} />)} />
      <Route path="/embed" element={signedIn('nav.embed', (s) => <EmbedSettingsPage session={s} />)} />
      <Route path="*" element={signedIn('title.not_found', () => <NotFoundPage />)} />
    </Routes>
  );
}

// The page's language is the catalogue's (en, or the pseudo-language en-XA).
document.documentElement.lang = dashboardLocale;

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Toasts>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </Toasts>
      </QueryClientProvider>
    </StrictMode>,
  );
}
