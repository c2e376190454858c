import { Link } from 'react-router';
import { formatDateTime } from '../../format.ts';
import { type DashboardMessageKey, msg, t, tx } from '../../messages/index.ts';
import { Button } from '../../ui.tsx';
import type { History } from './history.ts';
import type { EditorState } from './operations.ts';
import { Preview } from './preview.tsx';
import type { Autosave } from './use-autosave.ts';

// The editor's top bar: template name, undo/redo, zoom, the save state, preview.

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

const SAVE_LABEL: Record<Autosave['status'], DashboardMessageKey> = {
  saved: 'editor.save.saved',
  pending: 'editor.save.pending',
  saving: 'editor.save.saving',
  error: 'editor.save.error',
  conflict: 'editor.save.conflict',
};

export function Toolbar(props: {
  name: string;
  onName: (name: string) => void;
  history: History;
  onUndo: () => void;
  onRedo: () => void;
  zoom: number;
  onZoom: (z: number) => void;
  save: Autosave;
  templateId: number;
  roles: string[];
}) {
  const { save, zoom } = props;
  return (
    <header className="ed-bar">
      <Link to="/templates" className="ed-back" aria-label={msg('editor.back')}>
        ←
      </Link>
      <input
        className="ed-title"
        aria-label={msg('editor.name')}
        value={props.name}
        maxLength={200}
        onChange={(e) => props.onName(e.target.value)}
      />
      <fieldset className="ed-bar-group">
        <legend className="sr-only">{msg('editor.history')}</legend>
        <Button
          small
          variant="ghost"
          onClick={props.onUndo}
          disabled={props.history.past.length === 0}
          aria-label={msg('editor.undo')}
          title={msg('editor.undo_title')}
        >
          ↶
        </Button>
        <Button
          small
          variant="ghost"
          onClick={props.onRedo}
          disabled={props.history.future.length === 0}
          aria-label={msg('editor.redo')}
          title={msg('editor.redo_title')}
        >
          ↷
        </Button>
      </fieldset>
      <ZoomControls zoom={zoom} onZoom={props.onZoom} />
      <output
        className={`ed-save ${save.status}`}
        aria-live="polite"
        data-status={save.status}
        title={save.error ?? undefined}
      >
        {save.status === 'error' && save.error
          ? t('editor.save.error_reason', { error: save.error })
          : msg(SAVE_LABEL[save.status])}
      </output>
      <Preview templateId={props.templateId} roles={props.roles} flush={save.flush} />
    </header>
  );
}

function ZoomControls({ zoom, onZoom }: { zoom: number; onZoom: (z: number) => void }) {
  const z = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number]);
  return (
    <fieldset className="ed-bar-group">
      <legend className="sr-only">{msg('editor.zoom')}</legend>
      <Button
        small
        variant="ghost"
        aria-label={msg('editor.zoom_out')}
        disabled={z <= 0}
        onClick={() => onZoom(ZOOMS[z - 1]!)}
      >
        −
      </Button>
      <span className="ed-zoom" aria-live="polite">
        {Math.round(zoom * 100)}%
      </span>
      <Button
        small
        variant="ghost"
        aria-label={msg('editor.zoom_in')}
        disabled={z >= ZOOMS.length - 1}
        onClick={() => onZoom(ZOOMS[z + 1]!)}
      >
        +
      </Button>
    </fieldset>
  );
}

export function ConflictBanner({
  conflict,
  onTheirs,
  onMine,
}: {
  conflict: EditorState;
  onTheirs: () => void;
  onMine: () => void;
}) {
  const by = conflict.template.updated_at
    ? formatDateTime(conflict.template.updated_at)
    : msg('editor.conflict.just_now');
  return (
    <div className="ed-conflict" role="alert">
      <p>{tx('editor.conflict', { when: by, strong: (c) => <strong>{c}</strong> })}</p>
      <div className="ed-actions">
        <Button small onClick={onTheirs}>
          {msg('editor.conflict.load_theirs')}
        </Button>
        <Button small variant="danger" onClick={onMine}>
          {msg('editor.conflict.keep_mine')}
        </Button>
      </div>
    </div>
  );
}
