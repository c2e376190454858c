import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { background } from '../background.ts';
import { msg, t } from '../messages/index.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { ErrorNote, PageHeader, SelectField } from '../ui.tsx';
import { BulkMappingForm, type Mapping } from './bulk-mapping.tsx';
import { BulkPreviewTable } from './bulk-preview.tsx';
import { BulkProgress } from './bulk-progress.tsx';
import { CopiesFields } from './copies-fields.tsx';
import { CopiesFormSchema, type CopiesValues, copiesPayload } from './copies-form.ts';
import { RequestExtrasFieldset, useRequestExtras } from './request-extras.tsx';

// /bulk: one template to every row of a CSV or XLSX file (source `bulk`, docs/sending.md).

interface Upload {
  file: string;
  file_name: string;
  /** One per chosen file (resets the mapping form). Sending needs no key of its own: the same
   * template, file and mapping name the same batch, so a retried or repeated upload sends nothing twice. */
  id: string;
}

const readAsBase64 = (file: File) =>
  new Promise<string>((ok, fail) => {
    const reader = new FileReader();
    reader.onload = () => ok(String(reader.result));
    reader.onerror = () => fail(reader.error);
    reader.readAsDataURL(file);
  });

export function BulkSendPage({ session }: { session: Session }) {
  const [params] = useSearchParams();
  const [templateId, setTemplateId] = useState(Number(params.get('template')) || 0);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [batchId, setBatchId] = useState<number | null>(null);
  const templates = useQuery(trpc.templates.list.queryOptions({ limit: 100 }));
  const preview = useBulkPreview();
  const create = useMutation(trpc.bulkSends.create.mutationOptions({ onSuccess: (b) => setBatchId(b.id) }));
  const [extras, setExtras] = useRequestExtras();
  const check = (u: Upload, mapping?: Mapping) =>
    preview.mutate({
      template_id: templateId,
      file: u.file,
      file_name: u.file_name,
      ...(mapping ? { mapping } : {}),
    });
  const choose = async (file: File | undefined) => {
    if (!file) return;
    const u = { file: await readAsBase64(file), file_name: file.name, id: crypto.randomUUID() };
    setUpload(u);
    setBatchId(null);
    check(u);
  };
  if (session.user.role === 'viewer') return <ErrorNote error={{ message: msg('bulk.viewer') }} />;
  return (
    <>
      <PageHeader title={msg('bulk.title')}>{msg('bulk.intro')}</PageHeader>
      <BulkFileCard
        templates={templates.data?.data ?? []}
        templateId={templateId}
        onTemplate={setTemplateId}
        onFile={(file) => background(choose(file))}
        error={preview.error}
      />
      {preview.data && upload ? (
        <>
          <BulkMappingForm
            key={upload.id}
            preview={preview.data}
            busy={preview.isPending}
            onCheck={(m) => check(upload, m)}
          />
          <BulkPreviewTable preview={preview.data} />
          {batchId ? null : (
            <BulkSendNow
              preview={preview.data}
              error={create.error}
              busy={create.isPending}
              extras={<RequestExtrasFieldset value={extras} onChange={setExtras} />}
              onSend={(copies) =>
                create.mutate({
                  template_id: templateId,
                  file: upload.file,
                  file_name: upload.file_name,
                  mapping: preview.data.mapping,
                  ...copiesPayload(copies),
                  ...extras,
                })
              }
            />
          )}
        </>
      ) : null}
      {batchId ? <BulkProgress id={batchId} /> : null}
    </>
  );
}

type Preview = NonNullable<ReturnType<typeof useBulkPreview>['data']>;
const useBulkPreview = () => useMutation(trpc.bulkSends.preview.mutationOptions());

/** How many rows go out, whether credits allow it, who is copied on each request, the reminder and handing-on options, and the button. */
function BulkSendNow(props: {
  preview: Preview;
  error: unknown;
  busy: boolean;
  extras: ReactNode;
  onSend: (copies: CopiesValues) => void;
}) {
  const { preview } = props;
  const sending = preview.total_rows - preview.invalid_rows;
  const form = useForm<CopiesValues>({ resolver: zodResolver(CopiesFormSchema) });
  return (
    <form
      className="card"
      aria-labelledby="bulk-send-now"
      noValidate
      onSubmit={form.handleSubmit((v) => props.onSend(v))}
    >
      <h2 id="bulk-send-now">{msg('bulk.send.title')}</h2>
      <p>
        {t(preview.invalid_rows ? 'bulk.send.summary_skipped' : 'bulk.send.summary', {
          sending,
          total: preview.total_rows,
          invalid: preview.invalid_rows,
        })}
      </p>
      {props.extras}
      {preview.can_send ? null : <p className="field-error">{msg('bulk.send.no_credits')}</p>}
      <CopiesFields register={form.register} errors={form.formState.errors} />
      <ErrorNote error={props.error} />
      <button type="submit" className="btn btn-primary" aria-busy={props.busy || undefined}>
        {t('bulk.send.submit', { count: sending })}
      </button>
    </form>
  );
}

/** The template to send and the spreadsheet with one row per request. */
function BulkFileCard(props: {
  templates: { id: number; name: string }[];
  templateId: number;
  onTemplate: (id: number) => void;
  onFile: (file: File | undefined) => void;
  error: unknown;
}) {
  return (
    <section className="card" aria-labelledby="bulk-file">
      <h2 id="bulk-file">{msg('bulk.file.title')}</h2>
      <SelectField
        label={msg('bulk.file.template')}
        value={String(props.templateId)}
        onChange={(e) => props.onTemplate(Number(e.target.value))}
        options={[
          { value: '0', label: msg('bulk.file.choose_template') },
          ...props.templates.map((t) => ({ value: String(t.id), label: t.name })),
        ]}
      />
      <div className="field">
        <label htmlFor="bulk-upload">{msg('bulk.file.spreadsheet')}</label>
        <input
          id="bulk-upload"
          type="file"
          accept=".csv,.xlsx,text/csv"
          disabled={!props.templateId}
          onChange={(e) => props.onFile(e.target.files?.[0])}
        />
      </div>
      <ErrorNote error={props.error} />
    </section>
  );
}
