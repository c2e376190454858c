import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { Session } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { EmptyState, ErrorNote, Loading } from '../../ui.tsx';
import { Workspace } from './workspace.tsx';
import './editor.css';

/**
 * The template editor at the spec's `edit_url` (/templates/{id}/edit): every page of every
 * document, fields placed, sized and configured on them, saved as the person works.
 */
export function EditorPage({ session }: { session: Session }) {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const state = useQuery({
    ...trpc.templates.editor.queryOptions({ id }),
    enabled: valid,
    // The editor owns its copy from here on: no refetch on focus replacing what is being edited.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  if (session.user.role === 'viewer') {
    return (
      <EditorFrame>
        <EmptyState title="You can look, not edit">
          Your role (viewer) cannot change templates. Ask an admin of the account for the member role.
        </EmptyState>
      </EditorFrame>
    );
  }
  if (!valid)
    return (
      <EditorFrame>
        <ErrorNote error={new Error('There is no template at this address.')} />
      </EditorFrame>
    );
  if (state.isPending)
    return (
      <EditorFrame>
        <Loading label="Opening the template…" />
      </EditorFrame>
    );
  if (state.error)
    return (
      <EditorFrame>
        <ErrorNote error={state.error} title="The template could not be opened" />
      </EditorFrame>
    );
  return <Workspace key={id} templateId={id} initial={state.data} />;
}

function EditorFrame({ children }: { children: React.ReactNode }) {
  return (
    <main className="ed-frame">
      <p>
        <Link to="/templates">← Templates</Link>
      </p>
      {children}
    </main>
  );
}
