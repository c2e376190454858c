import { CreateSignatureRequestInput } from '@esign/core/schemas/signature-requests';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { type UseFormReturn, useFieldArray, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { msg, tx } from '../messages/index.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { EmptyState, ErrorNote, Loading, PageHeader, SelectField, SubmitRow, TextField } from '../ui.tsx';
import { BrandSelect } from './brand-choice.tsx';
import { CopiesFields } from './copies-fields.tsx';
import { RequestExtrasFieldset, useRequestExtras } from './request-extras.tsx';
import { SendOptions, SignerFieldset } from './send-fieldsets.tsx';
import {
  type FormValues,
  type SendForm,
  SendFormSchema,
  type TemplateField,
  toPayload,
} from './send-form.ts';

// The form reuses the procedure's own schemas (send-form.ts): a signer's name and email rules come
// from SignerInput, and the assembled request is checked with CreateSignatureRequestInput.

export function SendPage({ session }: { session: Session }) {
  const templates = useQuery(trpc.templates.list.queryOptions({ limit: 100 }));
  const credits = useQuery(trpc.account.credits.queryOptions());
  if (session.user.role === 'viewer') {
    return (
      <>
        <PageHeader title={msg('send.title')} />
        <EmptyState title={msg('send.viewer.title')}>{msg('send.viewer.text')}</EmptyState>
      </>
    );
  }
  const active = templates.data?.data.filter((t) => !t.archived_at) ?? [];
  return (
    <>
      <PageHeader title={msg('send.title')}>
        {tx(session.environment === 'test' ? 'send.intro_test' : 'send.intro', {
          link: (c) => <Link to="/bulk">{c}</Link>,
        })}
      </PageHeader>
      {credits.data && !credits.data.can_send ? (
        <div className="notice notice-error" role="alert">
          {tx('send.no_credits', { link: (c) => <Link to="/billing">{c}</Link> })}
        </div>
      ) : null}
      {templates.isPending ? <Loading /> : null}
      {templates.data && active.length === 0 ? (
        <EmptyState
          title={msg('send.no_template.title')}
          action={
            <Link className="btn btn-primary" to="/templates">
              {msg('send.no_template.action')}
            </Link>
          }
        >
          {msg('send.no_template.text')}
        </EmptyState>
      ) : null}
      {active.length > 0 ? <SendFormCard active={active} /> : null}
    </>
  );
}

/** One signer per role of the chosen template, blank, whenever the template changes. */
function useSignersPerRole(
  form: UseFormReturn<FormValues>,
  roles: string[] | undefined,
  /** Issue 47: the template's approver and viewer roles, preselected. */
  kinds: Record<string, 'approver' | 'viewer'> | undefined,
) {
  useEffect(() => {
    if (!roles) return;
    const blank = {
      kind: '' as const,
      name: '',
      email: '',
      phone: '',
      locale: '',
      delivery: '' as const,
      prefill: {},
    };
    form.reset({
      ...form.getValues(),
      signers: roles.map((role) => ({ role, ...blank, kind: kinds?.[role] ?? '' })),
    });
  }, [roles, kinds, form]);
}

/** The form: the template, one fieldset per role, the options; sends and opens the new request. */
function SendFormCard({ active }: { active: { id: number; name: string }[] }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const templateId = Number(params.get('template')) || null;
  const template = useQuery({
    ...trpc.templates.get.queryOptions({ id: templateId ?? 0 }),
    enabled: templateId !== null,
  });
  const form = useForm<FormValues>({
    resolver: zodResolver(SendFormSchema),
    defaultValues: { signers: [], signing_order: 'sequential', require_email_otp: false, send_email: true },
  });
  const signers = useFieldArray({ control: form.control, name: 'signers' });
  const [extras, setExtras] = useRequestExtras();
  const send = useMutation(
    trpc.signatureRequests.create.mutationOptions({ onSuccess: (r) => navigate(`/requests/${r.id}`) }),
  );
  useSignersPerRole(form, template.data?.roles, template.data?.role_kinds);
  const fields = (template.data?.fields ?? []) as TemplateField[];
  const submit = form.handleSubmit((v) => {
    const checked = CreateSignatureRequestInput.safeParse(toPayload(v, templateId ?? 0, fields, extras));
    if (!checked.success) {
      form.setError('root', { message: checked.error.issues[0]?.message ?? msg('send.check_form') });
      return;
    }
    send.mutate(checked.data);
  });
  const numbered = signers.fields.length > 1 && form.watch('signing_order') === 'sequential';
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={msg('send.form_label')}>
      <SelectField
        label={msg('send.template')}
        value={templateId ? String(templateId) : ''}
        onChange={(e) => setParams(e.target.value ? { template: e.target.value } : {})}
        options={[
          { value: '', label: msg('send.choose_template') },
          ...active.map((t) => ({ value: String(t.id), label: t.name })),
        ]}
      />
      {template.isFetching && !template.data ? <Loading /> : null}
      <ErrorNote error={template.error} />
      {template.data && fields.length === 0 ? (
        <div className="notice notice-error" role="alert">
          {tx('send.no_fields', { link: (c) => <a href={template.data?.edit_url}>{c}</a> })}
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
              number={numbered ? i + 1 : null}
            />
          ))
        : null}
      {template.data && fields.length > 0 ? (
        <SendActions
          form={form}
          several={signers.fields.length > 1}
          templateName={template.data.name}
          send={send}
          extras={<RequestExtrasFieldset value={extras} onChange={setExtras} />}
        />
      ) : null}
    </form>
  );
}

/** Under the signers: the order, the options, the form's error and the Send button. */
function SendActions({
  form,
  several,
  templateName,
  send,
  extras,
}: {
  form: SendForm;
  several: boolean;
  templateName: string;
  send: { error: unknown; isPending: boolean };
  extras: ReactNode;
}) {
  const order = form.register('signing_order');
  return (
    <>
      {several ? (
        <SelectField
          label={msg('send.order')}
          options={[
            { value: 'sequential', label: msg('send.order.sequential') },
            { value: 'parallel', label: msg('send.order.parallel') },
          ]}
          {...order}
        />
      ) : null}
      <CopiesFields register={form.register} errors={form.formState.errors} />
      <BrandSelect {...form.register('brand_id')} />
      <TextField
        label={msg('brands.send.reply_to')}
        hint={msg('brands.send.reply_to_hint')}
        type="email"
        error={form.formState.errors.reply_to?.message}
        {...form.register('reply_to')}
      />
      <SendOptions form={form} templateName={templateName} />
      {extras}
      {form.formState.errors.root ? (
        <p className="field-error" role="alert">
          {form.formState.errors.root.message}
        </p>
      ) : null}
      <ErrorNote error={send.error} title={msg('send.not_sent')} />
      <SubmitRow busy={send.isPending}>{msg('send.submit')}</SubmitRow>
    </>
  );
}
