import {
  type FieldLogic,
  type FieldValidation,
  type LocalisedText,
  localised,
  type NumberFormat,
  roundTo,
  VALIDATION_PRESETS,
  type ValidationPreset,
} from '@esign/domain';
import { msg, t } from '../../messages/index.ts';
import { FieldError } from './condition-builder.tsx';
import type { LogicControl, LogicErrors } from './logic-errors.ts';
import type { EditorField } from './model.ts';

// Issue 46: a field's checks beyond its type, and a computed number's format, in the editor's
// properties panel: a ready-made check or a pattern with its message, the length of a text, the
// range and step of a number, the earliest and latest date; decimals, prefix and suffix. Each
// control is labelled and shows the server's save refusal for its key under it.

type Patch = (patch: Partial<FieldLogic>) => void;

/** `validation` with `key` set (or removed when empty); no validation left is none at all. */
function withValidation(
  v: FieldValidation | undefined,
  key: keyof FieldValidation,
  value: FieldValidation[keyof FieldValidation],
): FieldValidation | undefined {
  const next: Record<string, unknown> = { ...v, [key]: value };
  if (value === undefined || value === '') delete next[key];
  return Object.keys(next).length ? (next as FieldValidation) : undefined;
}

/** A number typed in a box: empty is none, anything else that is a number is kept. */
function numberOf(raw: string): number | undefined {
  const n = Number(raw);
  return raw.trim() === '' || !Number.isFinite(n) ? undefined : n;
}

/**
 * The pattern's message as typed: one text, or (when the API gave texts by language) the English
 * text replaced and the other languages kept.
 */
function messageOf(current: LocalisedText | undefined, raw: string): LocalisedText | undefined {
  if (typeof current !== 'object') return raw || undefined;
  const next: Record<string, string> = { ...current, en: raw };
  if (!raw) delete next.en;
  return Object.keys(next).length ? next : undefined;
}

function describedBy(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

/** One labelled input of the panel with its refusal under it. */
function Input(props: {
  id: string;
  label: string;
  value: string | number | undefined;
  type?: 'text' | 'number' | 'date';
  step?: string;
  maxLength?: number;
  error?: string | undefined;
  onChange: (raw: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        step={props.step}
        maxLength={props.maxLength}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value)}
        {...describedBy(props.id, props.error)}
      />
      <FieldError id={`${props.id}-error`} error={props.error} />
    </div>
  );
}

/** The checks that fit the field's type (text and phone, number, date); nothing for other types. */
export function ValidationSettings(props: { field: EditorField; errors: LogicErrors; onChange: Patch }) {
  const { field, errors } = props;
  const v = field.logic?.validation;
  const set = (key: keyof FieldValidation, value: FieldValidation[keyof FieldValidation]) =>
    props.onChange({ validation: withValidation(v, key, value) });
  const input = (
    key: Exclude<keyof FieldValidation, 'preset'>,
    type: 'text' | 'number' | 'date',
    extra: { step?: string; maxLength?: number } = {},
  ) => (
    <Input
      id={`ed-v-${key}`}
      label={msg(`editor.logic.v.${key}`)}
      type={type}
      value={key === 'message' ? localised(v?.message, 'en') : (v?.[key] as string | number | undefined)}
      error={errors[`validation.${key}` as LogicControl]}
      onChange={(raw) =>
        set(
          key,
          type === 'number'
            ? numberOf(raw)
            : key === 'message'
              ? messageOf(v?.message, raw)
              : raw || undefined,
        )
      }
      {...extra}
    />
  );
  if (field.type === 'text' || field.type === 'phone')
    return (
      <fieldset className="ed-checks">
        <legend>{msg('editor.logic.checks')}</legend>
        <PresetSelect
          value={v?.preset}
          error={errors['validation.preset']}
          onChange={(p) => set('preset', p)}
        />
        {input('pattern', 'text', { maxLength: 500 })}
        {v?.pattern || v?.message ? input('message', 'text', { maxLength: 500 }) : null}
        <p className="ed-hint">{t('editor.logic.pattern_hint', { example: '[A-Z]{2}[0-9]{8,12}' })}</p>
        {input('min_length', 'number', { step: '1' })}
        {input('max_length', 'number', { step: '1' })}
      </fieldset>
    );
  if (field.type === 'number')
    return (
      <fieldset className="ed-checks">
        <legend>{msg('editor.logic.checks')}</legend>
        {input('min', 'number', { step: 'any' })}
        {input('max', 'number', { step: 'any' })}
        {input('step', 'number', { step: 'any' })}
      </fieldset>
    );
  if (field.type === 'date')
    return (
      <fieldset className="ed-checks">
        <legend>{msg('editor.logic.checks')}</legend>
        {input('earliest', 'date')}
        {input('latest', 'date')}
      </fieldset>
    );
  return null;
}

/** A ready-made check of a text or phone field's answer. */
function PresetSelect(props: {
  value: ValidationPreset | undefined;
  error: string | undefined;
  onChange: (preset: ValidationPreset | undefined) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="ed-preset">{msg('editor.logic.preset')}</label>
      <select
        id="ed-preset"
        value={props.value ?? ''}
        onChange={(e) => props.onChange((e.target.value || undefined) as ValidationPreset | undefined)}
        {...describedBy('ed-preset', props.error)}
      >
        <option value="">{msg('editor.logic.preset_none')}</option>
        {VALIDATION_PRESETS.map((p) => (
          <option key={p} value={p}>
            {msg(`editor.logic.preset.${p}`)}
          </option>
        ))}
      </select>
      <FieldError id="ed-preset-error" error={props.error} />
    </div>
  );
}

/** How a computed number is shown: decimals, prefix, suffix, with an example of the result. */
export function FormatSettings(props: { field: EditorField; error: string | undefined; onChange: Patch }) {
  const f = props.field.logic?.format;
  const set = (key: keyof NumberFormat, value: string | number | undefined) => {
    const next: Record<string, unknown> = { ...f, [key]: value };
    if (value === undefined || value === '') delete next[key];
    props.onChange({ format: Object.keys(next).length ? (next as NumberFormat) : undefined });
  };
  const decimals = f?.decimals ?? 2;
  // drawn as the sealed PDF draws it (services/sealing/values.ts): prefix, the rounded value, suffix
  const example = `${f?.prefix ?? ''}${String(roundTo(1234.567, decimals))}${f?.suffix ?? ''}`;
  return (
    <fieldset className="ed-checks">
      <legend>{msg('editor.logic.format')}</legend>
      <Input
        id="ed-format-decimals"
        label={msg('editor.logic.format_decimals')}
        type="number"
        step="1"
        value={f?.decimals}
        onChange={(raw) => set('decimals', numberOf(raw))}
      />
      <Input
        id="ed-format-prefix"
        label={msg('editor.logic.format_prefix')}
        maxLength={10}
        value={f?.prefix}
        onChange={(raw) => set('prefix', raw)}
      />
      <Input
        id="ed-format-suffix"
        label={msg('editor.logic.format_suffix')}
        maxLength={10}
        value={f?.suffix}
        onChange={(raw) => set('suffix', raw)}
      />
      <p className="ed-hint" id="ed-format-example">
        {t('editor.logic.format_example', { example })}
      </p>
      <FieldError id="ed-format-error" error={props.error} />
    </fieldset>
  );
}
