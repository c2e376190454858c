import { PasskeyName } from '@esign/core/schemas/auth';
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatAgo, formatDateTime } from '../../format.ts';
import { msg, t } from '../../messages/index.ts';
import { trpc, trpcClient } from '../../trpc.ts';
import { Badge, Button, ErrorNote, Loading, TextField, useToast } from '../../ui.tsx';

// Issue 45 item 2: the user's passkeys on the account page (and on the page of a member who must
// set up a second step). The browser side is @simplewebauthn/browser, bundled with the dashboard.

/** Registers a passkey: the server's options, the browser's `navigator.credentials.create()`, the server's check. */
export function AddPasskey({ onAdded }: { onAdded?: () => unknown }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: async (passkeyName: string) => {
      const { ticket, options } = await trpcClient.passkeys.startRegistration.mutate();
      const response = await startRegistration({
        // The JSON options as the server's library wrote them (tRPC's inferred type is wider).
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      return trpcClient.passkeys.finishRegistration.mutate({ ticket, name: passkeyName, response });
    },
    onSuccess: async () => {
      toast(msg('account.passkeys.added'));
      setName('');
      await queryClient.invalidateQueries();
      await onAdded?.();
    },
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = PasskeyName.safeParse(name);
        setNameError(parsed.success ? undefined : parsed.error.issues[0]?.message);
        if (parsed.success) add.mutate(parsed.data);
      }}
    >
      <ErrorNote error={add.error} />
      <TextField
        label={msg('account.passkeys.name')}
        hint={msg('account.passkeys.name_hint')}
        value={name}
        error={nameError}
        onChange={(e) => setName(e.target.value)}
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={add.isPending}>
          {msg('account.passkeys.add')}
        </Button>
      </div>
    </form>
  );
}

function RenameForm({ id, name, onDone }: { id: number; name: string; onDone: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(name);
  const rename = useMutation(
    trpc.passkeys.rename.mutationOptions({
      onSuccess: async () => {
        toast(msg('account.passkeys.renamed'));
        await queryClient.invalidateQueries({ queryKey: trpc.passkeys.list.queryKey() });
        onDone();
      },
    }),
  );
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate({ id, name: value });
      }}
    >
      <ErrorNote error={rename.error} />
      <TextField
        label={msg('account.passkeys.new_name')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <Button type="submit" small busy={rename.isPending}>
        {msg('account.passkeys.save')}
      </Button>
    </form>
  );
}

export function PasskeysSection() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.passkeys.list.queryOptions());
  const [renaming, setRenaming] = useState<number | null>(null);
  const remove = useMutation(
    trpc.passkeys.remove.mutationOptions({
      onSuccess: async () => {
        toast(msg('account.passkeys.removed'));
        await queryClient.invalidateQueries();
      },
    }),
  );
  return (
    <section className="card" aria-labelledby="passkeys">
      <h2 id="passkeys">{msg('account.passkeys.title')}</h2>
      <p className="hint">{msg('account.passkeys.intro')}</p>
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error ?? remove.error} />
      {list.data?.length === 0 ? <p>{msg('account.passkeys.none')}</p> : null}
      <ul className="rows">
        {list.data?.map((p) => (
          <li key={p.id} className="row">
            <div className="row-main">
              {renaming === p.id ? (
                <RenameForm id={p.id} name={p.name} onDone={() => setRenaming(null)} />
              ) : (
                <strong>{p.name}</strong>
              )}{' '}
              {p.backed_up ? <Badge>{msg('account.passkeys.synced')}</Badge> : null}
              <div className="hint">
                {t('account.passkeys.details', {
                  added: formatDateTime(p.created_at),
                  used: p.last_used_at ? formatAgo(p.last_used_at) : 'never',
                })}
              </div>
            </div>
            <div className="row-actions">
              <Button
                small
                onClick={() => setRenaming(p.id)}
                aria-label={`${msg('account.passkeys.rename')} ${p.name}`}
              >
                {msg('account.passkeys.rename')}
              </Button>
              <Button
                small
                variant="danger"
                busy={remove.isPending}
                onClick={() => remove.mutate({ id: p.id })}
                aria-label={`${msg('account.passkeys.remove')} ${p.name}`}
              >
                {msg('account.passkeys.remove')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <AddPasskey />
    </section>
  );
}
