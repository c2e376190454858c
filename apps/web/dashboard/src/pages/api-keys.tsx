import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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
  if (session.user.role !== 'admin') return <AdminOnly title="API keys" what="API keys" />;
  const active = keys.data?.filter((k) => !k.revoked_at) ?? [];
  const revoked = keys.data?.filter((k) => k.revoked_at) ?? [];
  return (
    <>
      <PageHeader title="API keys">
        Keys let your software use the REST API and MCP endpoint. A key acts as the person who created it.
      </PageHeader>
      <NewKeyForm session={session} onCreated={setSecret} />
      <SecretDialog
        secret={secret}
        title="Your new API key"
        description="Copy it now and store it somewhere safe: it will not be shown again."
        testId="new-key"
        copyLabel="Copy key"
        doneLabel="I have stored it"
        onClose={() => setSecret(null)}
      />
      <section aria-labelledby="active-keys">
        <h2 id="active-keys">Active keys</h2>
        {keys.isPending ? <Loading /> : null}
        <ErrorNote error={keys.error} />
        {keys.data && active.length === 0 ? (
          <EmptyState title="No active keys">
            Create one above, then send it as Authorization: Bearer &lt;key&gt;.
          </EmptyState>
        ) : null}
        {active.length > 0 ? <KeyTable keys={active} /> : null}
      </section>
      <RevokedKeys keys={revoked} />
    </>
  );
}
