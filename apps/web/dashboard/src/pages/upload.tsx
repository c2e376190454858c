import { useId, useState } from 'react';
import { msg, t } from '../messages/index.ts';
import { mutateWithProgress } from '../trpc.ts';
import { Button, ErrorNote, ProgressBar, useToast } from '../ui.tsx';
import { withFileNames } from '../upload-errors.ts';
import { ChosenFiles, type Created, Dropzone, UploadDone } from './upload-parts.tsx';

/** One upload from the dashboard is one request body: at most one full-size (25 MB) document. */
const MAX_BYTES = 25 * 1024 * 1024;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(t('upload.read_failed', { file: file.name })));
    reader.readAsDataURL(file);
  });

/** Drag and drop (or choose) PDFs and images; a progress bar while they upload. */
export function Upload({ folders, onUploaded }: { folders: string[]; onUploaded: () => void }) {
  const toast = useToast();
  const inputId = useId();
  const [files, setFiles] = useState<File[]>([]);
  const [name, setName] = useState('');
  const [folder, setFolder] = useState('');
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
      const template = await mutateWithProgress<Created>(
        'templates.create',
        {
          documents,
          ...(name.trim() ? { name: name.trim() } : {}),
          ...(folder.trim() ? { folder: folder.trim() } : {}),
        },
        setProgress,
      );
      setCreated(template);
      setFiles([]);
      setName('');
      toast(t('upload.created', { name: template.name }));
      onUploaded();
    } catch (err) {
      setError(withFileNames(err, files));
    } finally {
      setProgress(null);
    }
  };
  return (
    <section className="card" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>{msg('upload.title')}</h2>
      <Dropzone inputId={inputId} onChoose={choose} />
      {files.length > 0 ? (
        <ChosenFiles
          inputId={inputId}
          files={files}
          tooBig={tooBig}
          total={total}
          name={name}
          onName={setName}
          folder={folder}
          onFolder={setFolder}
          folders={folders}
        />
      ) : null}
      {progress !== null ? <ProgressBar value={progress} label={msg('upload.progress')} /> : null}
      <ErrorNote error={error} title={msg('upload.failed')} />
      {created ? <UploadDone created={created} /> : null}
      {files.length > 0 ? (
        <div className="form-actions">
          <Button onClick={() => setFiles([])} disabled={progress !== null}>
            {msg('upload.clear')}
          </Button>
          <Button variant="primary" onClick={upload} busy={progress !== null} disabled={tooBig}>
            {msg('upload.submit')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
