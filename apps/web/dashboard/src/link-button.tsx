import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A link to another page that looks like the page's main button. */
export function PrimaryLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link className="btn btn-primary" to={to}>
      {children}
    </Link>
  );
}
