import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { msg, t, tx } from '../messages/index.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { CardForm, ErrorNote, Loading, PageHeader, TextArea, useToast } from '../ui.tsx';

// /embed: the origins allowed to show this account's signing pages inside their own pages.

/** The HTML to paste into a page (code, not words). */
const snippet = (script: string) =>
  ['<script src="', script, '"></script>\n<esign-form signing-url="SIGNING_URL"></esign-form>'].join('');

const code = (c: React.ReactNode[]) => <code>{c}</code>;

export function EmbedSettingsPage({ session }: { session: Session }) {
  const settings = useQuery(trpc.embed.get.queryOptions());
  if (settings.isPending) return <Loading />;
  if (!settings.data) return <ErrorNote error={settings.error} />;
  const { script_url: script } = settings.data;
  return (
    <>
      <PageHeader title={msg('embed.title')}>
        {tx('embed.intro', { option: '"embed": true', field: 'signing_url', element: '<esign-form>', code })}
      </PageHeader>
      <section className="card" aria-labelledby="embed-snippet">
        <h2 id="embed-snippet">{msg('embed.snippet.title')}</h2>
        <pre>
          <code>{snippet(script)}</code>
        </pre>
        <p className="hint">
          {tx('embed.snippet.events', {
            loaded: 'esign:loaded',
            fieldCompleted: 'esign:field-completed',
            signed: 'esign:signed',
            declined: 'esign:declined',
            error: 'esign:error',
            code,
          })}
        </p>
      </section>
      {session.user.role === 'admin' ? (
        <OriginsForm origins={settings.data.origins} />
      ) : (
        <p>
          {t('embed.origins.read_only', {
            origins: settings.data.origins.join(', ') || msg('embed.origins.none'),
          })}
        </p>
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
        toast(msg('embed.origins.saved'));
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
      title={msg('embed.origins.title')}
      onSubmit={submit}
      error={save.error}
      busy={save.isPending}
      submitLabel={msg('embed.origins.save')}
    >
      <TextArea
        label={msg('embed.origins.label')}
        rows={5}
        value={text}
        onChange={(e) => setText(e.target.value)}
        hint={t('embed.origins.hint', { example: 'https://app.example.com' })}
      />
    </CardForm>
  );
}
