import { msg, t } from '../messages/index.ts';
import { EmptyState, PageHeader } from '../ui.tsx';

/**
 * What members and viewers see on admin pages (the procedures refuse them anyway); `what` names
 * the page's contents from the catalogue ("API keys").
 */
export function AdminOnly({ title, what }: { title: string; what: string }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title={msg('team.admin_only.title')}>{t('team.admin_only.body', { what })}</EmptyState>
    </>
  );
}
