import { Link } from 'react-router';
import { EmptyState, PageHeader } from '../ui.tsx';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title="There is nothing at this address" action={<Link to="/">Go to the overview</Link>}>
        The link may be out of date.
      </EmptyState>
    </>
  );
}
