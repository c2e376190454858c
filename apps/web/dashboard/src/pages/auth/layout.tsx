import type { ReactNode } from 'react';
import { msg, tx } from '../../messages/index.ts';

/** Where this server answers MCP clients. */
const MCP_PATH = '/mcp';

/** The centred card of the sign-in pages. */
export function AuthLayout({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="auth">
      <main className="auth-card" id="main">
        <p className="brand">{msg('shell.brand')}</p>
        <h1>{title}</h1>
        {children}
      </main>
      <footer className="auth-footer">
        {footer}
        <p>
          {tx('auth.footer', {
            link: (c) => <a href="/api/docs">{c}</a>,
            endpoint: <code>{MCP_PATH}</code>,
          })}
        </p>
      </footer>
    </div>
  );
}
