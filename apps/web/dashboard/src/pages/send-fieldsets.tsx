import { LANGUAGE_NAMES, LOCALES } from '@esign/i18n';
import { msg, t } from '../messages/index.ts';
import { CheckboxField, SelectField, TextArea, TextField } from '../ui.tsx';
import { PREFILLABLE, type SendForm, type TemplateField } from './send-form.ts';

// The Send page's fieldsets: one per signer, and the optional message, expiry and security.

/** The part of a signer's form values that holds the values filled in for them beforehand. */
const PREFILL = 'prefill';

/** Values filled in for one signer beforehand, behind a disclosure. */
function PrefillFields({
  form,
  index: i,
  role,
  fields,
}: {
  form: SendForm;
  index: number;
  role: string;
  fields: TemplateField[];
}) {
  const roleFields = fields;
  return (
    <details>
      <summary>{t('send.signer.prefill', { role })}</summary>
      <div className="grid-2">
        {roleFields.map((f) => {
          const field = form.register(`signers.${i}.${PREFILL}.${f.name}`);
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
  );
}

/** One signer per template role: who, and optionally values filled in for them beforehand. */
export function SignerFieldset({
  form,
  index: i,
  role,
  fields,
  number,
}: {
  form: SendForm;
  index: number;
  role: string;
  fields: TemplateField[];
  number: number | null;
}) {
  const roleFields = fields.filter((f) => f.role === role && f.name && PREFILLABLE.has(f.type));
  // Issue 47: approvers and viewers fill no field, so only a role without fields offers them.
  const fieldless = !fields.some((f) => f.role === role);
  const errors = form.formState.errors.signers?.[i];
  return (
    <fieldset className="fieldset">
      <legend>{number ? t('send.signer.numbered', { number, role }) : role}</legend>
      <div className="grid-2">
        <TextField
          label={msg('send.signer.name')}
          autoComplete="off"
          error={errors?.name?.message}
          {...form.register(`signers.${i}.name`)}
        />
        <TextField
          label={msg('send.signer.email')}
          type="email"
          autoComplete="off"
          error={errors?.email?.message}
          {...form.register(`signers.${i}.email`)}
        />
        <TextField
          label={msg('send.signer.phone')}
          type="tel"
          autoComplete="off"
          hint={msg('send.signer.phone_hint')}
          error={errors?.phone?.message}
          {...form.register(`signers.${i}.phone`)}
        />
        {fieldless ? (
          <SelectField
            label={msg('send.signer.kind')}
            hint={msg('send.signer.kind_hint')}
            options={[
              { value: '', label: msg('send.signer.kind.signer') },
              { value: 'approver', label: msg('send.signer.kind.approver') },
              { value: 'viewer', label: msg('send.signer.kind.viewer') },
            ]}
            {...form.register(`signers.${i}.kind`)}
          />
        ) : null}
        <SelectField
          label={msg('send.signer.language')}
          options={[
            { value: '', label: msg('send.signer.language_default') },
            ...LOCALES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })),
          ]}
          {...form.register(`signers.${i}.locale`)}
        />
        <SelectField
          label={msg('send.signer.delivery')}
          hint={msg('send.signer.delivery_hint')}
          options={[
            { value: '', label: msg('send.signer.delivery.email') },
            { value: 'sms', label: msg('send.signer.delivery.sms') },
            { value: 'email_and_sms', label: msg('send.signer.delivery.email_and_sms') },
          ]}
          {...form.register(`signers.${i}.delivery`)}
        />
      </div>
      {roleFields.length > 0 ? <PrefillFields form={form} index={i} role={role} fields={roleFields} /> : null}
    </fieldset>
  );
}

export function SendOptions({ form, templateName }: { form: SendForm; templateName: string }) {
  return (
    <details>
      <summary>{msg('send.options')}</summary>
      <TextField
        label={msg('send.options.subject')}
        placeholder={t('send.options.subject_placeholder', { name: templateName })}
        {...form.register('subject')}
      />
      <TextArea label={msg('send.options.body')} rows={3} {...form.register('body')} />
      <TextField
        label={msg('send.options.expires')}
        type="date"
        hint={msg('send.options.expires_hint')}
        {...form.register('expires_on')}
      />
      <CheckboxField label={msg('send.options.otp')} {...form.register('require_email_otp')} />
      <CheckboxField
        label={msg('send.options.send_email')}
        hint={msg('send.options.send_email_hint')}
        {...form.register('send_email')}
      />
    </details>
  );
}
