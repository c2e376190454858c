import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { mutateWithProgress } from '../trpc.ts';
import { Button, ErrorNote, ProgressBar, useToast } from '../ui.tsx';

/** One upload from the dashboard is one request body: at most one full-size (25 MB) document. */
const MAX_BYTES = 25 * 1024 * 1024;
const ACCEPT = 'application/pdf,image/png,image/jpeg,image/webp,image/gif,image/tiff';

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`Could not read ${file.name}`));
    reader.readAsDataURL(file);
  });

interface Created {
  id: number;
  name: string;
  edit_url: string;
  fields?: unknown[];
  warnings?: string[];
}

/** Drag and drop (or choose) PDFs and images; a progress bar while they upload. */
export function Upload({ folders, onUploaded }: { folders: string[]; onUploaded: () => void }) {
  const toast = useToast();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [name, setName] = useState('');
  const [folder, setFolder] = useState('');
  const [over, setOver] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const total = files.reduce((n, f) => n + f.size, 0);
  const tooBig = total > MAX_BYTES;

  const choose = (list: FileList | null) => {
    if (!list) return;
    setFiles([...list].slice(0, 10));
    setError(null);
    setCreated(null);
  };
  const upload = async () => {
    setError(null);
    setProgress(0);
    try {
      const documents = await Promise.all(
        files.map(async (f) => ({ name: f.name.replace(/\.[^.]+$/, ''), file: await readAsDataUrl(f) })),
      );
      const t = await mutateWithProgress<Created>(
        'templates.create',
        {
          documents,
          ...(name.trim() ? { name: name.trim() } : {}),
          ...(folder.trim() ? { folder: folder.trim() } : {}),
        },
        setProgress,
      );
      setCreated(t);
      setFiles([]);
      setName('');
      toast(`Template “${t.name}” created`);
      onUploaded();
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
    }
  };
  return (
    <section className="card" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>New template</h2>
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
          choose(e.dataTransfer.files);
        }}
      >
        <strong>Drop PDF or image files here</strong>
        <span className="hint">or press to choose files (up to 25 MB per upload)</span>
        <input
          ref={input}
          id={inputId}
          className="sr-only"
          type="file"
          accept={ACCEPT}
          multiple
          onChange={(e) => choose(e.target.files)}
          data-testid="template-file"
        />
      </label>
      {files.length > 0 ? (
        <>
          <ul className="plain">
            {files.map((f) => (
              <li key={f.name}>
                {f.name} <span className="hint">({(f.size / 1024 / 1024).toFixed(1)} MB)</span>
              </li>
            ))}
          </ul>
          {tooBig ? (
            <div className="notice notice-error" role="alert">
              These files add up to {(total / 1024 / 1024).toFixed(1)} MB; upload at most 25 MB at a time here
              (the API takes up to 10 documents of 25 MB each).
            </div>
          ) : null}
          <div className="grid-2">
            <div className="field">
              <label htmlFor={`${inputId}-name`}>Template name (optional)</label>
              <input
                id={`${inputId}-name`}
                value={name}
                placeholder={files[0]?.name.replace(/\.[^.]+$/, '')}
                onChange={(e) => setName(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${inputId}-folder`}>Folder (optional)</label>
              <input
                id={`${inputId}-folder`}
                list={`${inputId}-folders`}
                value={folder}
                onChange={(e) => setFolder(e.target.value)}
              />
              <datalist id={`${inputId}-folders`}>
                {folders.map((f) => (
                  <option key={f} value={f} />
                ))}
              </datalist>
            </div>
          </div>
        </>
      ) : null}
      {progress !== null ? <ProgressBar value={progress} label="Uploading" /> : null}
      <ErrorNote error={error} title="The upload failed." />
      {created ? (
        <div className="notice notice-good" role="status">
          “{created.name}” is ready
          {created.fields && created.fields.length === 0 ? ', but has no fields yet: ' : '. '}
          {created.fields && created.fields.length === 0 ? (
            <a href={created.edit_url}>place fields in the editor</a>
          ) : (
            <Link to={`/send?template=${created.id}`}>Send it for signature</Link>
          )}
          {created.warnings?.length ? <span className="hint"> ({created.warnings.join(' ')})</span> : null}
        </div>
      ) : null}
      {files.length > 0 ? (
        <div className="form-actions">
          <Button onClick={() => setFiles([])} disabled={progress !== null}>
            Clear
          </Button>
          <Button variant="primary" onClick={upload} busy={progress !== null} disabled={tooBig}>
            Upload
          </Button>
        </div>
      ) : null}
    </section>
  );
}
