import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { msg } from '../messages/index.ts';
import { SecretDialog } from '../secret-dialog.tsx';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { EmptyState, ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { AdminOnly } from './admin-only.tsx';
import { KeyTable, RevokedKeys } from './api-keys/key-table.tsx';
import { NewKeyForm } from './api-keys/new-key-form.tsx';

export function ApiKeysPage({ session }: { session: Session }) {
  const [secret, setSecret] = useState<string | null>(null);
  const keys = useQuery({ ...trpc.apiKeys.list.queryOptions(), enabled: session.user.role === 'admin' });
  if (session.user.role !== 'admin')
    return <AdminOnly title={msg('keys.title')} what={msg('keys.admin_only')} />;
  const active = keys.data?.filter((k) => !k.revoked_at) ?? [];
  const revoked = keys.data?.filter((k) => k.revoked_at) ?? [];
  return (
    <>
      <PageHeader title={msg('keys.title')}>{msg('keys.intro')}</PageHeader>
      <NewKeyForm session={session} onCreated={setSecret} />
      <SecretDialog
        secret={secret}
        title={msg('keys.secret.title')}
        description={msg('keys.secret.description')}
        testId="new-key"
        copyLabel={msg('keys.secret.copy')}
        doneLabel={msg('keys.secret.done')}
        onClose={() => setSecret(null)}
      />
      <section aria-labelledby="active-keys">
        <h2 id="active-keys">{msg('keys.active.title')}</h2>
        {keys.isPending ? <Loading /> : null}
        <ErrorNote error={keys.error} />
        {keys.data && active.length === 0 ? (
          <EmptyState title={msg('keys.active.none')}>{msg('keys.active.none_hint')}</EmptyState>
        ) : null}
        {active.length > 0 ? <KeyTable keys={active} /> : null}
      </section>
      <RevokedKeys keys={revoked} />
    </>
  );
}
