import { contrastFailures, contrastMessage } from '@esign/domain';
import { type FormEvent, useId, useState } from 'react';
import { msg, t } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';
import { CheckboxField, ErrorNote, SubmitRow, TextArea, TextField } from '../../ui.tsx';

// A brand's form (create and edit, issue 44 item 1): name, logo, the two colours with their WCAG
// AA check as they change (the rule the server applies, @esign/domain), support contact, legal
// footer and sender identity. The server checks everything again and names what it refuses.

export type BrandDetail = Outputs['brands']['get'];

/** What the form sends: `logo` undefined keeps the stored one, null removes it. */
export interface BrandValues {
  name: string;
  logo?: string | null;
  primary_color: string;
  accent_color: string;
  support_email: string | null;
  support_url: string | null;
  legal_footer: string | null;
  from_name: string | null;
  reply_to: string | null;
  from_address: string | null;
  is_default: boolean;
}

const MAX_LOGO_BYTES = 1024 * 1024;
const HEX = /^#[0-9a-fA-F]{6}$/;
const OPTIONAL = [
  'support_email',
  'support_url',
  'legal_footer',
  'from_name',
  'reply_to',
  'from_address',
] as const;
type OptionalKey = (typeof OPTIONAL)[number];

/** A colour: the picker and its #rrggbb text, kept in step. */
function ColorField(props: { label: string; hint: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <div className="color-row">
        <input
          id={id}
          type="color"
          value={HEX.test(props.value) ? props.value.toLowerCase() : '#000000'}
          onChange={(e) => props.onChange(e.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <input
          aria-label={t('brands.form.hex', { label: props.label })}
          value={props.value}
          maxLength={7}
          spellCheck={false}
          onChange={(e) => props.onChange(e.target.value.trim())}
        />
      </div>
      <p id={`${id}-hint`} className="hint">
        {props.hint}
      </p>
    </div>
  );
}

/** The contrast of both colours against the signing page, as the server will judge it. */
function ContrastNote({ primary, accent }: { primary: string; accent: string }) {
  if (!HEX.test(primary) || !HEX.test(accent)) return null;
  const failures = contrastFailures({
    primary_color: primary.toLowerCase(),
    accent_color: accent.toLowerCase(),
  });
  if (failures.length === 0)
    return (
      <p className="hint" role="status" data-testid="contrast">
        {msg('brands.form.contrast_ok')}
      </p>
    );
  return (
    <div className="notice notice-error" role="alert" data-testid="contrast">
      {failures.map((f) => (
        <p key={`${f.field}-${f.other}`}>{contrastMessage(f)}</p>
      ))}
    </div>
  );
}

/** The logo: its picture, a file to upload (read as a data: URI), and Remove. */
function LogoField({
  current,
  onChange,
}: {
  current: string | null;
  onChange: (logo: string | null, error: string | null) => void;
}) {
  const id = useId();
  const read = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_LOGO_BYTES) return onChange(null, msg('brands.form.logo_too_large'));
    const reader = new FileReader();
    reader.onload = () => onChange(String(reader.result), null);
    reader.readAsDataURL(file);
  };
  return (
    <div className="field">
      <label htmlFor={id}>{msg('brands.form.logo')}</label>
      {current?.startsWith('data:image/') && !current.startsWith('data:image/svg') ? (
        <img className="brand-logo" src={current} alt="" />
      ) : null}
      <input
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/svg+xml"
        aria-describedby={`${id}-hint`}
        onChange={(e) => read(e.target.files?.[0])}
      />
      <p id={`${id}-hint`} className="hint">
        {msg('brands.form.logo_hint')}
      </p>
    </div>
  );
}

function initialValues(brand: BrandDetail | null): BrandValues {
  const text = (k: OptionalKey) => brand?.[k] ?? null;
  return {
    name: brand?.name ?? '',
    primary_color: brand?.primary_color ?? '#1d4ed8',
    accent_color: brand?.accent_color ?? '#1d4ed8',
    is_default: brand?.is_default ?? false,
    ...(Object.fromEntries(OPTIONAL.map((k) => [k, text(k)])) as Record<OptionalKey, string | null>),
  };
}

/** The logo: upload (refused over the size limit, in words), and removal of the current one. */
function LogoSection({
  shown,
  onLogo,
}: {
  shown: string | null;
  onLogo: (logo: string | null | undefined) => void;
}) {
  const [logoError, setLogoError] = useState<string | null>(null);
  return (
    <>
      <LogoField
        current={shown}
        onChange={(logo, err) => {
          setLogoError(err);
          if (!err) onLogo(logo);
        }}
      />
      {logoError ? (
        <p className="field-error" role="alert">
          {logoError}
        </p>
      ) : null}
      {shown ? (
        <CheckboxField
          label={msg('brands.form.logo_remove')}
          onChange={(e) => onLogo(e.target.checked ? null : undefined)}
        />
      ) : null}
    </>
  );
}

/** The two colours and the WCAG AA note on them (the rule of @esign/domain the server applies). */
function ColorsSection({ v, set }: { v: BrandValues; set: (part: Partial<BrandValues>) => void }) {
  return (
    <>
      <ColorField
        label={msg('brands.form.primary')}
        hint={msg('brands.form.primary_hint')}
        value={v.primary_color}
        onChange={(c) => set({ primary_color: c })}
      />
      <ColorField
        label={msg('brands.form.accent')}
        hint={msg('brands.form.accent_hint')}
        value={v.accent_color}
        onChange={(c) => set({ accent_color: c })}
      />
      <ContrastNote primary={v.primary_color} accent={v.accent_color} />
    </>
  );
}

export function BrandForm({
  brand,
  busy,
  error,
  submitLabel,
  onSubmit,
}: {
  brand: BrandDetail | null;
  busy: boolean;
  error: unknown;
  submitLabel: string;
  onSubmit: (v: BrandValues) => void;
}) {
  const [v, setV] = useState<BrandValues>(() => initialValues(brand));
  const set = (part: Partial<BrandValues>) => setV((old) => ({ ...old, ...part }));
  const shownLogo = v.logo === undefined ? (brand?.logo?.data_uri ?? null) : v.logo;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cleaned = Object.fromEntries(OPTIONAL.map((k) => [k, v[k]?.trim() ? v[k].trim() : null]));
    onSubmit({ ...v, ...cleaned });
  };
  const textField = (k: OptionalKey, label: string, hint?: string, type = 'text') => (
    <TextField
      label={label}
      type={type}
      hint={hint}
      value={v[k] ?? ''}
      onChange={(e) => set({ [k]: e.target.value } as Partial<BrandValues>)}
    />
  );
  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <ErrorNote error={error} />
      <TextField
        label={msg('brands.form.name')}
        hint={msg('brands.form.name_hint')}
        required
        maxLength={100}
        value={v.name}
        onChange={(e) => set({ name: e.target.value })}
      />
      <LogoSection shown={shownLogo} onLogo={(logo) => set({ logo })} />
      <ColorsSection v={v} set={set} />
      {textField('support_email', msg('brands.form.support_email'), undefined, 'email')}
      {textField('support_url', msg('brands.form.support_url'), undefined, 'url')}
      <TextArea
        label={msg('brands.form.legal_footer')}
        value={v.legal_footer ?? ''}
        maxLength={2000}
        onChange={(e) => set({ legal_footer: e.target.value })}
      />
      {textField('from_name', msg('brands.form.from_name'), msg('brands.form.from_name_hint'))}
      {textField('reply_to', msg('brands.form.reply_to'), undefined, 'email')}
      {textField(
        'from_address',
        msg('brands.form.from_address'),
        msg('brands.form.from_address_hint'),
        'email',
      )}
      <CheckboxField
        label={msg('brands.form.is_default')}
        checked={v.is_default}
        onChange={(e) => set({ is_default: e.target.checked })}
      />
      <SubmitRow busy={busy}>{submitLabel}</SubmitRow>
    </form>
  );
}
