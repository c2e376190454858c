import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dialog, DropdownMenu, Switch } from 'radix-ui';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { type DashboardMessageKey, msg, t } from './messages/index.ts';
import type { Session } from './session.tsx';
import { trpc } from './trpc.ts';
import { Button, useToast } from './ui.tsx';

interface NavItem {
  to: string;
  label: DashboardMessageKey;
  adminOnly?: boolean;
  /** Pages for people who may send or change things: a viewer is not shown them. */
  writersOnly?: boolean;
}

const NAV: NavItem[] = [
  { to: '/', label: 'nav.overview' },
  { to: '/templates', label: 'nav.templates' },
  { to: '/send', label: 'nav.send' },
  { to: '/bulk', label: 'nav.bulk', writersOnly: true },
  { to: '/requests', label: 'nav.requests' },
  { to: '/api-keys', label: 'nav.api_keys', adminOnly: true },
  { to: '/connected-apps', label: 'nav.connected_apps' },
  { to: '/webhooks', label: 'nav.webhooks', adminOnly: true },
  { to: '/embed', label: 'nav.embed', writersOnly: true },
  { to: '/brands', label: 'nav.brands', adminOnly: true },
  { to: '/team', label: 'nav.team' },
  { to: '/billing', label: 'nav.billing' },
  { to: '/account', label: 'nav.account' },
];

function Nav({ session, onNavigate }: { session: Session; onNavigate?: () => void }) {
  return (
    <nav aria-label={msg('nav.label')}>
      <ul className="nav">
        {NAV.filter(
          (n) =>
            (!n.adminOnly || session.user.role === 'admin') &&
            (!n.writersOnly || session.user.role !== 'viewer'),
        ).map((n) => (
          <li key={n.to}>
            <NavLink to={n.to} end={n.to === '/'} onClick={onNavigate}>
              {msg(n.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function EnvironmentSwitch({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const set = useMutation(
    trpc.sessions.setEnvironment.mutationOptions({
      onSuccess: async (r) => {
        await queryClient.invalidateQueries();
        toast(msg(r.environment === 'test' ? 'env.to_test' : 'env.to_live'));
      },
      onError: () => toast(msg('env.failed'), 'bad'),
    }),
  );
  const test = session.environment === 'test';
  const id = useId();
  return (
    <div className="env-switch">
      <label htmlFor={id}>{msg('env.label')}</label>
      <Switch.Root
        id={id}
        className="switch"
        checked={test}
        aria-busy={set.isPending || undefined}
        onCheckedChange={(on) => {
          if (!set.isPending) set.mutate({ environment: on ? 'test' : 'live' });
        }}
      >
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
    </div>
  );
}

function UserMenu({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSettled: async () => {
        queryClient.clear();
        await navigate('/login');
      },
    }),
  );
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          className="user-button"
          aria-label={t('ui.account_menu_for', { name: session.user.name || session.user.email })}
        >
          {/* The initial is drawn by CSS, so the visible text is exactly the name the label contains (WCAG 2.5.3). */}
          <span
            className="avatar"
            aria-hidden="true"
            data-initial={(session.user.name || session.user.email).slice(0, 1).toUpperCase()}
          />
          <span className="user-name">{session.user.name || session.user.email}</span>
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          <DropdownMenu.Label className="menu-label">
            {session.user.email}
            <br />
            {session.account.name ?? msg('menu.your_account')} · {t('team.role', { role: session.user.role })}
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="menu-sep" />
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate('/account')}>
            {msg('menu.account')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => signOut.mutate()}>
            {msg('menu.sign_out')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function Shell({ session, children }: { session: Session; children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const queryClient = useQueryClient();
  const set = useMutation(
    trpc.sessions.setEnvironment.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }),
  );
  // Focus the page's heading after navigation, so screen readers announce the new page.
  const path = location.pathname;
  useEffect(() => {
    if (path) document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);
  return (
    <div className="app">
      <a className="skip" href="#main">
        {msg('shell.skip')}
      </a>
      <header className="topbar">
        <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
          <Dialog.Trigger asChild>
            <button type="button" className="menu-button" aria-label={msg('shell.open_menu')}>
              <span aria-hidden="true">☰</span>
            </button>
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="overlay" />
            <Dialog.Content className="drawer">
              <Dialog.Title className="brand">{msg('shell.brand')}</Dialog.Title>
              <Dialog.Description className="sr-only">{msg('shell.pages')}</Dialog.Description>
              <Nav session={session} onNavigate={() => setMenuOpen(false)} />
              <EnvironmentSwitch session={session} />
              <Dialog.Close asChild>
                <button type="button" className="dialog-x" aria-label={msg('shell.close_menu')}>
                  ×
                </button>
              </Dialog.Close>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <span className="brand">{msg('shell.brand')}</span>
        <span className="account-name">{session.account.name}</span>
        <div className="topbar-end">
          <div className="desktop-only">
            <EnvironmentSwitch session={session} />
          </div>
          <UserMenu session={session} />
        </div>
      </header>
      {session.environment === 'test' ? (
        <div className="test-banner" role="status">
          <strong>{msg('env.banner_title')}</strong> {msg('env.banner')}{' '}
          <Button
            small
            variant="ghost"
            onClick={() => set.mutate({ environment: 'live' })}
            busy={set.isPending}
          >
            {msg('env.back_to_live')}
          </Button>
        </div>
      ) : null}
      <div className="layout">
        <aside className="sidebar">
          <Nav session={session} />
        </aside>
        <main id="main" className="content">
          {children}
        </main>
      </div>
    </div>
  );
}
