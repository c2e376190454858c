import { CreateSignatureRequestInput, SignerInput } from '@esign/core/schemas/signature-requests';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type UseFormReturn, useFieldArray, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import {
  CheckboxField,
  EmptyState,
  ErrorNote,
  Loading,
  PageHeader,
  SelectField,
  SubmitRow,
  TextArea,
  TextField,
} from '../ui.tsx';

// The form reuses the procedure's own schemas: a signer's name and email rules come from SignerInput,
// and the assembled request is checked with CreateSignatureRequestInput before it is sent.
const SignerForm = z.object({
  role: z.string(),
  name: SignerInput.shape.name,
  email: SignerInput.shape.email.unwrap(),
  prefill: z.record(z.string(), z.union([z.string(), z.boolean()])).optional(),
});
const Form = z.object({
  signers: z.array(SignerForm).min(1),
  signing_order: CreateSignatureRequestInput.shape.signing_order,
  subject: z.string().max(300).optional(),
  body: z.string().max(10_000).optional(),
  expires_on: z.string().optional(),
  require_email_otp: z.boolean(),
  send_email: z.boolean(),
});
type FormValues = z.input<typeof Form>;

/** Fields a sender may fill in for a signer beforehand (prefill keys are field names). */
const PREFILLABLE = new Set(['text', 'number', 'date', 'checkbox', 'select', 'phone']);

interface TemplateField {
  name?: string | undefined;
  type: string;
  role: string;
  options?: string[] | undefined;
}

function prefillValue(field: TemplateField | undefined, raw: string | boolean): unknown {
  if (field?.type === 'checkbox') return raw === true;
  if (field?.type === 'number') return Number(raw);
  return raw;
}

type Form = UseFormReturn<FormValues>;

/** The request as POST /signature_requests takes it, from the form's values. */
function toPayload(v: FormValues, templateId: number, fields: TemplateField[]) {
  return {
    template_id: templateId,
    signing_order: v.signing_order,
    send_email: v.send_email,
    require_email_otp: v.require_email_otp,
    signers: v.signers.map((s) => {
      const prefill = Object.fromEntries(
        Object.entries(s.prefill ?? {})
          .filter(([, value]) => value !== '' && value !== false)
          .map(([name, value]) => [
            name,
            prefillValue(
              fields.find((f) => f.name === name),
              value,
            ),
          ]),
      );
      return {
        role: s.role,
        email: s.email,
        ...(s.name ? { name: s.name } : {}),
        ...(Object.keys(prefill).length ? { prefill } : {}),
      };
    }),
    ...(v.subject || v.body
      ? { message: { ...(v.subject ? { subject: v.subject } : {}), ...(v.body ? { body: v.body } : {}) } }
      : {}),
    ...(v.expires_on ? { expires_at: new Date(`${v.expires_on}T23:59:59`).toISOString() } : {}),
  };
}

/** One signer per template role: who, and optionally values filled in for them beforehand. */
function SignerFieldset({
  form,
  index: i,
  role,
  fields,
  number,
}: {
  form: Form;
  index: number;
  role: string;
  fields: TemplateField[];
  number: number | null;
}) {
  const roleFields = fields.filter((f) => f.role === role && f.name && PREFILLABLE.has(f.type));
  const errors = form.formState.errors.signers?.[i];
  return (
    <fieldset className="fieldset">
      <legend>
        {number ? `${number}. ` : ''}
        {role}
      </legend>
      <div className="grid-2">
        <TextField
          label="Name"
          autoComplete="off"
          error={errors?.name?.message}
          {...form.register(`signers.${i}.name`)}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          error={errors?.email?.message}
          {...form.register(`signers.${i}.email`)}
        />
      </div>
      {roleFields.length > 0 ? (
        <details>
          <summary>Fill in values for {role} (optional)</summary>
          <div className="grid-2">
            {roleFields.map((f) => {
              const field = form.register(`signers.${i}.prefill.${f.name}`);
              if (f.type === 'checkbox') return <CheckboxField key={f.name} label={f.name} {...field} />;
              if (f.type === 'select') {
                const options = (f.options ?? []).map((o) => ({ value: o, label: o }));
                return (
                  <SelectField
                    key={f.name}
                    label={f.name ?? ''}
                    options={[{ value: '', label: '—' }, ...options]}
                    {...field}
                  />
                );
              }
              const type = f.type === 'date' ? 'date' : f.type === 'number' ? 'number' : 'text';
              return <TextField key={f.name} label={f.name ?? ''} type={type} {...field} />;
            })}
          </div>
        </details>
      ) : null}
    </fieldset>
  );
}

function SendOptions({ form, templateName }: { form: Form; templateName: string }) {
  return (
    <details>
      <summary>Message, expiry and security (optional)</summary>
      <TextField
        label="Email subject"
        placeholder={`Please sign “${templateName}”`}
        {...form.register('subject')}
      />
      <TextArea label="Message to signers" rows={3} {...form.register('body')} />
      <TextField
        label="Link expires on"
        type="date"
        hint="After this day the signing links stop working."
        {...form.register('expires_on')}
      />
      <CheckboxField
        label="Ask signers for a one-time code sent to their email before they can open the document"
        {...form.register('require_email_otp')}
      />
      <CheckboxField
        label="Email the signing links"
        hint="Untick to share the links yourself."
        {...form.register('send_email')}
      />
    </details>
  );
}

export function SendPage({ session }: { session: Session }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const templateId = Number(params.get('template')) || null;
  const templates = useQuery(trpc.templates.list.queryOptions({ limit: 100 }));
  const template = useQuery({
    ...trpc.templates.get.queryOptions({ id: templateId ?? 0 }),
    enabled: templateId !== null,
  });
  const credits = useQuery(trpc.account.credits.queryOptions());
  const form = useForm<FormValues>({
    resolver: zodResolver(Form),
    defaultValues: { signers: [], signing_order: 'sequential', require_email_otp: false, send_email: true },
  });
  const signers = useFieldArray({ control: form.control, name: 'signers' });
  const send = useMutation(
    trpc.signatureRequests.create.mutationOptions({ onSuccess: (r) => navigate(`/requests/${r.id}`) }),
  );

  // One signer per role of the chosen template.
  const roles = template.data?.roles;
  useEffect(() => {
    if (roles)
      form.reset({
        ...form.getValues(),
        signers: roles.map((role) => ({ role, name: '', email: '', prefill: {} })),
      });
  }, [roles, form]);

  if (session.user.role === 'viewer') {
    return (
      <>
        <PageHeader title="Send for signature" />
        <EmptyState title="Viewers cannot send documents">
          Ask an admin of your account to give you the member role.
        </EmptyState>
      </>
    );
  }
  const fields = (template.data?.fields ?? []) as TemplateField[];
  const submit = form.handleSubmit((v) => {
    const payload = toPayload(v, templateId ?? 0, fields);
    const checked = CreateSignatureRequestInput.safeParse(payload);
    if (!checked.success) {
      form.setError('root', { message: checked.error.issues[0]?.message ?? 'Check the form' });
      return;
    }
    send.mutate(checked.data);
  });
  const active = templates.data?.data.filter((t) => !t.archived_at) ?? [];
  return (
    <>
      <PageHeader title="Send for signature">
        Each signer gets an email with a private link
        {session.environment === 'test' ? ' (test mode: no credits used)' : ''}.
      </PageHeader>
      {credits.data && !credits.data.can_send ? (
        <div className="notice notice-error" role="alert">
          Your account has no credits left, so sending will be refused. <Link to="/billing">See billing</Link>
          .
        </div>
      ) : null}
      {templates.isPending ? <Loading /> : null}
      {templates.data && active.length === 0 ? (
        <EmptyState
          title="No template to send yet"
          action={
            <Link className="btn btn-primary" to="/templates">
              Upload a template
            </Link>
          }
        >
          Upload a PDF first; its fields tell each signer what to fill in.
        </EmptyState>
      ) : null}
      {active.length > 0 ? (
        <form className="card" onSubmit={submit} noValidate aria-label="Send for signature">
          <SelectField
            label="Template"
            value={templateId ? String(templateId) : ''}
            onChange={(e) => setParams(e.target.value ? { template: e.target.value } : {})}
            options={[
              { value: '', label: 'Choose a template…' },
              ...active.map((t) => ({ value: String(t.id), label: t.name })),
            ]}
          />
          {template.isFetching && !template.data ? <Loading /> : null}
          <ErrorNote error={template.error} />
          {template.data && fields.length === 0 ? (
            <div className="notice notice-error" role="alert">
              This template has no fields yet, so it cannot be sent.{' '}
              <a href={template.data.edit_url}>Place fields in the editor</a>.
            </div>
          ) : null}
          {template.data
            ? signers.fields.map((s, i) => (
                <SignerFieldset
                  key={s.id}
                  form={form}
                  index={i}
                  role={s.role}
                  fields={fields}
                  number={
                    signers.fields.length > 1 && form.watch('signing_order') === 'sequential' ? i + 1 : null
                  }
                />
              ))
            : null}
          {template.data && fields.length > 0 ? (
            <>
              {signers.fields.length > 1 ? (
                <SelectField
                  label="Signing order"
                  options={[
                    { value: 'sequential', label: 'One after another, in the order above' },
                    { value: 'parallel', label: 'Everyone at the same time' },
                  ]}
                  {...form.register('signing_order')}
                />
              ) : null}
              <SendOptions form={form} templateName={template.data.name} />
              {form.formState.errors.root ? (
                <p className="field-error" role="alert">
                  {form.formState.errors.root.message}
                </p>
              ) : null}
              <ErrorNote error={send.error} title="Not sent." />
              <SubmitRow busy={send.isPending}>Send for signature</SubmitRow>
            </>
          ) : null}
        </form>
      ) : null}
    </>
  );
}
