import { Link } from 'react-router';
import { msg } from '../messages/index.ts';
import { EmptyState, PageHeader } from '../ui.tsx';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title={msg('notfound.title')} />
      <EmptyState title={msg('notfound.heading')} action={<Link to="/">{msg('notfound.home')}</Link>}>
        {msg('notfound.body')}
      </EmptyState>
    </>
  );
}
