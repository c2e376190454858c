import { CheckboxField, SelectField, TextArea, TextField } from '../ui.tsx';
import { PREFILLABLE, type SendForm, type TemplateField } from './send-form.ts';

// The Send page's fieldsets: one per signer, and the optional message, expiry and security.

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

export function SendOptions({ form, templateName }: { form: SendForm; templateName: string }) {
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
