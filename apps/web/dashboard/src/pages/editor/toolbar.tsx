import { Link } from 'react-router';
import { formatDateTime } from '../../format.ts';
import { Button } from '../../ui.tsx';
import type { History } from './history.ts';
import type { EditorState } from './operations.ts';
import { Preview } from './preview.tsx';
import type { Autosave } from './use-autosave.ts';

// The editor's top bar: template name, undo/redo, zoom, the save state, preview.

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

const SAVE_LABEL: Record<Autosave['status'], string> = {
  saved: 'All changes saved',
  pending: 'Unsaved changes…',
  saving: 'Saving…',
  error: 'Not saved',
  conflict: 'Not saved: edited elsewhere',
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
      <Link to="/templates" className="ed-back" aria-label="Back to templates">
        ←
      </Link>
      <input
        className="ed-title"
        aria-label="Template name"
        value={props.name}
        maxLength={200}
        onChange={(e) => props.onName(e.target.value)}
      />
      <fieldset className="ed-bar-group">
        <legend className="sr-only">History</legend>
        <Button
          small
          variant="ghost"
          onClick={props.onUndo}
          disabled={props.history.past.length === 0}
          aria-label="Undo"
          title="Undo (Ctrl+Z)"
        >
          ↶
        </Button>
        <Button
          small
          variant="ghost"
          onClick={props.onRedo}
          disabled={props.history.future.length === 0}
          aria-label="Redo"
          title="Redo (Ctrl+Shift+Z)"
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
        {SAVE_LABEL[save.status]}
        {save.status === 'error' && save.error ? `: ${save.error}` : ''}
      </output>
      <Preview templateId={props.templateId} roles={props.roles} flush={save.flush} />
    </header>
  );
}

function ZoomControls({ zoom, onZoom }: { zoom: number; onZoom: (z: number) => void }) {
  const z = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number]);
  return (
    <fieldset className="ed-bar-group">
      <legend className="sr-only">Zoom</legend>
      <Button
        small
        variant="ghost"
        aria-label="Zoom out"
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
        aria-label="Zoom in"
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
  const by = conflict.template.updated_at ? formatDateTime(conflict.template.updated_at) : 'just now';
  return (
    <div className="ed-conflict" role="alert">
      <p>
        <strong>Someone else saved this template</strong> ({by}) while you were editing. Your latest changes
        are not saved.
      </p>
      <div className="ed-actions">
        <Button small onClick={onTheirs}>
          Load their version
        </Button>
        <Button small variant="danger" onClick={onMine}>
          Keep mine (replace theirs)
        </Button>
      </div>
    </div>
  );
}
