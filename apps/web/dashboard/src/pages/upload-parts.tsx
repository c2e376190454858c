import { useState } from 'react';
import { Link } from 'react-router';

// The pieces of the New template card (upload.tsx): the drop zone, the chosen files with their
// name and folder, and the note once the template exists.

const ACCEPT = 'application/pdf,image/png,image/jpeg,image/webp,image/gif,image/tiff';

export interface Created {
  id: number;
  name: string;
  edit_url: string;
  fields?: unknown[];
  warnings?: string[];
}

/** Drag and drop, or press to choose: PDFs and images. */
export function Dropzone({
  inputId,
  onChoose,
}: {
  inputId: string;
  onChoose: (files: FileList | null) => void;
}) {
  const [over, setOver] = useState(false);
  return (
    <label
      htmlFor={inputId}
      className={`dropzone${over ? ' dropzone-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        onChoose(e.dataTransfer.files);
      }}
    >
      <strong>Drop PDF or image files here</strong>
      <span className="hint">or press to choose files (up to 25 MB per upload)</span>
      <input
        id={inputId}
        className="sr-only"
        type="file"
        accept={ACCEPT}
        multiple
        onChange={(e) => onChoose(e.target.files)}
        data-testid="template-file"
      />
    </label>
  );
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The chosen files, a warning past the size limit, and the optional name and folder. */
export function ChosenFiles(p: {
  inputId: string;
  files: File[];
  tooBig: boolean;
  total: number;
  name: string;
  onName: (v: string) => void;
  folder: string;
  onFolder: (v: string) => void;
  folders: string[];
}) {
  return (
    <>
      <ul className="plain">
        {p.files.map((f) => (
          <li key={f.name}>
            {f.name} <span className="hint">({mb(f.size)} MB)</span>
          </li>
        ))}
      </ul>
      {p.tooBig ? (
        <div className="notice notice-error" role="alert">
          These files add up to {mb(p.total)} MB; upload at most 25 MB at a time here (the API takes up to 10
          documents of 25 MB each).
        </div>
      ) : null}
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${p.inputId}-name`}>Template name (optional)</label>
          <input
            id={`${p.inputId}-name`}
            value={p.name}
            placeholder={p.files[0]?.name.replace(/\.[^.]+$/, '')}
            onChange={(e) => p.onName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${p.inputId}-folder`}>Folder (optional)</label>
          <input
            id={`${p.inputId}-folder`}
            list={`${p.inputId}-folders`}
            value={p.folder}
            onChange={(e) => p.onFolder(e.target.value)}
          />
          <datalist id={`${p.inputId}-folders`}>
            {p.folders.map((f) => (
              <option key={f} value={f} />
            ))}
          </datalist>
        </div>
      </div>
    </>
  );
}

/** The new template: off to the editor when it has no fields yet, else to sending it. */
export function UploadDone({ created }: { created: Created }) {
  const noFields = created.fields && created.fields.length === 0;
  return (
    <div className="notice notice-good" role="status">
      “{created.name}” is ready
      {noFields ? ', but has no fields yet: ' : '. '}
      {noFields ? (
        <a href={created.edit_url}>place fields in the editor</a>
      ) : (
        <Link to={`/send?template=${created.id}`}>Send it for signature</Link>
      )}
      {created.warnings?.length ? <span className="hint"> ({created.warnings.join(' ')})</span> : null}
    </div>
  );
}
