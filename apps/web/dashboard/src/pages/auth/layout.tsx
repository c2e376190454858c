import type { ReactNode } from 'react';

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
        <p className="brand">E-Signature</p>
        <h1>{title}</h1>
        {children}
      </main>
      <footer className="auth-footer">
        {footer}
        <p>
          Developers: <a href="/api/docs">API reference</a> · MCP endpoint at <code>/mcp</code>
        </p>
      </footer>
    </div>
  );
}
