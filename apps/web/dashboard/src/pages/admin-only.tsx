import { EmptyState, PageHeader } from '../ui.tsx';

/** What members and viewers see on admin pages (the procedures refuse them anyway). */
export function AdminOnly({ title, what }: { title: string; what: string }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title="Only admins can see this page">
        {what} are managed by the admins of your account. Ask one of them (see the Team page) if you need a
        change.
      </EmptyState>
    </>
  );
}
