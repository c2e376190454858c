import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dialog, DropdownMenu, Switch } from 'radix-ui';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router';
import type { Session } from './session.tsx';
import { trpc } from './trpc.ts';
import { Button, useToast } from './ui.tsx';

interface NavItem {
  to: string;
  label: string;
  adminOnly?: boolean;
  /** Pages for people who may send or change things: a viewer is not shown them. */
  writersOnly?: boolean;
}

const NAV: NavItem[] = [
  { to: '/', label: 'Overview' },
  { to: '/templates', label: 'Templates' },
  { to: '/send', label: 'Send' },
  { to: '/bulk', label: 'Bulk send', writersOnly: true },
  { to: '/requests', label: 'Requests' },
  { to: '/api-keys', label: 'API keys', adminOnly: true },
  { to: '/connected-apps', label: 'Connected apps' },
  { to: '/webhooks', label: 'Webhooks', adminOnly: true },
  { to: '/embed', label: 'Embedding', writersOnly: true },
  { to: '/team', label: 'Team' },
  { to: '/billing', label: 'Billing' },
  { to: '/account', label: 'Account' },
];

function Nav({ session, onNavigate }: { session: Session; onNavigate?: () => void }) {
  return (
    <nav aria-label="Main">
      <ul className="nav">
        {NAV.filter(
          (n) =>
            (!n.adminOnly || session.user.role === 'admin') &&
            (!n.writersOnly || session.user.role !== 'viewer'),
        ).map((n) => (
          <li key={n.to}>
            <NavLink to={n.to} end={n.to === '/'} onClick={onNavigate}>
              {n.label}
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
        toast(r.environment === 'test' ? 'Switched to test data' : 'Switched to live data');
      },
      onError: () => toast('Could not switch; try again', 'bad'),
    }),
  );
  const test = session.environment === 'test';
  const id = useId();
  return (
    <div className="env-switch">
      <label htmlFor={id}>Test mode</label>
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
          aria-label={`Account menu for ${session.user.name || session.user.email}`}
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
            {session.account.name ?? 'Your account'} · {session.user.role}
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="menu-sep" />
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate('/account')}>
            Account and sessions
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => signOut.mutate()}>
            Sign out
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
        Skip to content
      </a>
      <header className="topbar">
        <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
          <Dialog.Trigger asChild>
            <button type="button" className="menu-button" aria-label="Open menu">
              <span aria-hidden="true">☰</span>
            </button>
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="overlay" />
            <Dialog.Content className="drawer">
              <Dialog.Title className="brand">E-Signature</Dialog.Title>
              <Dialog.Description className="sr-only">Pages of the dashboard</Dialog.Description>
              <Nav session={session} onNavigate={() => setMenuOpen(false)} />
              <EnvironmentSwitch session={session} />
              <Dialog.Close asChild>
                <button type="button" className="dialog-x" aria-label="Close menu">
                  ×
                </button>
              </Dialog.Close>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <span className="brand">E-Signature</span>
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
          <strong>Test mode.</strong> You are looking at test data: requests sent here are not legally binding
          and use no credits.{' '}
          <Button
            small
            variant="ghost"
            onClick={() => set.mutate({ environment: 'live' })}
            busy={set.isPending}
          >
            Back to live data
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
