import { useState } from 'react';
import { Link } from 'react-router';
import { msg, t, tx } from '../messages/index.ts';

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
      <strong>{msg('upload.drop')}</strong>
      <span className="hint">{msg('upload.drop_hint')}</span>
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
            {f.name} <span className="hint">{t('upload.file_size', { size: mb(f.size) })}</span>
          </li>
        ))}
      </ul>
      {p.tooBig ? (
        <div className="notice notice-error" role="alert">
          {t('upload.too_big', { size: mb(p.total) })}
        </div>
      ) : null}
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${p.inputId}-name`}>{msg('upload.name')}</label>
          <input
            id={`${p.inputId}-name`}
            value={p.name}
            placeholder={p.files[0]?.name.replace(/\.[^.]+$/, '')}
            onChange={(e) => p.onName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${p.inputId}-folder`}>{msg('upload.folder')}</label>
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
      {noFields
        ? tx('upload.done_no_fields', {
            name: created.name,
            link: (c) => <a href={created.edit_url}>{c}</a>,
          })
        : tx('upload.done', {
            name: created.name,
            link: (c) => <Link to={`/send?template=${created.id}`}>{c}</Link>,
          })}
      {created.warnings?.length ? <span className="hint"> ({created.warnings.join(' ')})</span> : null}
    </div>
  );
}
