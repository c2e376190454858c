import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { CardForm, ErrorNote, Loading, PageHeader, TextArea, useToast } from '../ui.tsx';

// /embed: the origins allowed to show this account's signing pages inside their own pages.

export function EmbedSettingsPage({ session }: { session: Session }) {
  const settings = useQuery(trpc.embed.get.queryOptions());
  if (settings.isPending) return <Loading />;
  if (!settings.data) return <ErrorNote error={settings.error} />;
  const { script_url: script } = settings.data;
  return (
    <>
      <PageHeader title="Embedded signing">
        Let people sign inside your own site. Send a request with <code>"embed": true</code>, then show its
        signer's <code>signing_url</code> with the <code>&lt;esign-form&gt;</code> element.
      </PageHeader>
      <section className="card" aria-labelledby="embed-snippet">
        <h2 id="embed-snippet">On your page</h2>
        <pre>
          <code>{`<script src="${script}"></script>\n<esign-form signing-url="SIGNING_URL"></esign-form>`}</code>
        </pre>
        <p className="hint">
          The element fires <code>esign:loaded</code>, <code>esign:completed</code>,{' '}
          <code>esign:declined</code> and <code>esign:error</code>.
        </p>
      </section>
      {session.user.role === 'admin' ? (
        <OriginsForm origins={settings.data.origins} />
      ) : (
        <p>Allowed origins: {settings.data.origins.join(', ') || 'none'}</p>
      )}
    </>
  );
}

function OriginsForm({ origins }: { origins: string[] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [text, setText] = useState(origins.join('\n'));
  useEffect(() => setText(origins.join('\n')), [origins]);
  const save = useMutation(
    trpc.embed.update.mutationOptions({
      onSuccess: async () => {
        toast('Allowed origins saved');
        await queryClient.invalidateQueries({ queryKey: trpc.embed.pathKey() });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ origins: text.split(/\s+/).filter(Boolean) });
  };
  return (
    <CardForm
      id="embed-origins"
      title="Allowed origins"
      onSubmit={submit}
      error={save.error}
      busy={save.isPending}
      submitLabel="Save"
    >
      <TextArea
        label="One origin per line"
        rows={5}
        value={text}
        onChange={(e) => setText(e.target.value)}
        hint="For example https://app.example.com. Other sites cannot show your signing pages; requests not sent for embedding are never shown in a frame."
      />
    </CardForm>
  );
}
