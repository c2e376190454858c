import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { msg } from '../../messages/index.ts';
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
        <EmptyState title={msg('editor.viewer.title')}>{msg('editor.viewer.body')}</EmptyState>
      </EditorFrame>
    );
  }
  if (!valid)
    return (
      <EditorFrame>
        <ErrorNote error={new Error(msg('editor.not_found'))} />
      </EditorFrame>
    );
  if (state.isPending)
    return (
      <EditorFrame>
        <Loading label={msg('editor.opening')} />
      </EditorFrame>
    );
  if (state.error)
    return (
      <EditorFrame>
        <ErrorNote error={state.error} title={msg('editor.open_failed')} />
      </EditorFrame>
    );
  return <Workspace key={id} templateId={id} initial={state.data} />;
}

function EditorFrame({ children }: { children: React.ReactNode }) {
  return (
    <main className="ed-frame">
      <p>
        <Link to="/templates">{msg('editor.back_link')}</Link>
      </p>
      {children}
    </main>
  );
}
