import { type FieldLogic, FormulaError, parseFormula } from '@esign/domain';
import { msg, t } from '../../messages/index.ts';
import { ConditionBuilder, FieldError } from './condition-builder.tsx';
import { logicErrorsFor } from './logic-errors.ts';
import type { EditorField } from './model.ts';
import { FormatSettings, ValidationSettings } from './validation-settings.tsx';

// Issue 46: a rule builder a non-programmer can use. "Show this field" and "Require this field"
// always (or as the Required box says), or when all / any of some conditions hold; a number
// field's formula with a live check (the evaluator the signing page and the server run) and its
// format; the checks that fit the type (a ready-made one or a pattern with its message, lengths,
// a range and step, dates). The preview (the signing page as a role sees it) evaluates what is
// built here. The server checks the whole template's logic again when the editor saves; its
// refusal (422 invalid_field) stands under the control it concerns (logic-errors.ts).

function withLogic(field: EditorField, patch: Partial<FieldLogic>): { logic: FieldLogic | undefined } {
  const next: FieldLogic = { ...field.logic, ...patch };
  for (const k of Object.keys(next) as (keyof FieldLogic)[]) if (next[k] === undefined) delete next[k];
  return { logic: Object.keys(next).length ? next : undefined };
}

export function LogicSettings(props: {
  field: EditorField;
  fields: EditorField[];
  /** the editor's last save error (a refusal of this field's logic shows by its control) */
  saveError?: string | null | undefined;
  onChange: (patch: { logic: FieldLogic | undefined }) => void;
}) {
  const { field } = props;
  const errors = logicErrorsFor(props.saveError, field.name.trim(), props.fields.indexOf(field));
  const patch = (p: Partial<FieldLogic>) => props.onChange(withLogic(field, p));
  return (
    <fieldset className="ed-logic">
      <legend>{msg('editor.logic.title')}</legend>
      <FieldError id="ed-logic-error" error={errors.logic} />
      <ConditionBuilder
        words={{
          id: 'ed-show',
          label: msg('editor.logic.show'),
          always: msg('editor.logic.show_always'),
          all: msg('editor.logic.show_all'),
          any: msg('editor.logic.show_any'),
        }}
        group={field.logic?.show_when}
        field={field}
        fields={props.fields}
        error={errors.show_when}
        onChange={(show_when) => patch({ show_when })}
      />
      <ConditionBuilder
        words={{
          id: 'ed-require',
          label: msg('editor.logic.require'),
          always: msg('editor.logic.require_box'),
          all: msg('editor.logic.show_all'),
          any: msg('editor.logic.show_any'),
        }}
        group={field.logic?.required_when}
        field={field}
        fields={props.fields}
        error={errors.required_when}
        onChange={(required_when) => patch({ required_when })}
      />
      {field.type === 'number' ? (
        <FormulaInput field={field} error={errors.formula} onChange={props.onChange} />
      ) : null}
      {field.type === 'number' && (field.logic?.formula !== undefined || field.logic?.format) ? (
        <FormatSettings field={field} error={errors.format} onChange={patch} />
      ) : null}
      <ValidationSettings field={field} errors={errors} onChange={patch} />
    </fieldset>
  );
}

function FormulaInput(props: {
  field: EditorField;
  error: string | undefined;
  onChange: (patch: { logic: FieldLogic | undefined }) => void;
}) {
  const { field } = props;
  const formula = field.logic?.formula ?? '';
  let problem: string | null = null;
  if (formula.trim()) {
    try {
      parseFormula(formula);
    } catch (e) {
      problem = e instanceof FormulaError ? e.message : String(e);
    }
  }
  return (
    <div className="field">
      <label htmlFor="ed-formula">{msg('editor.logic.formula')}</label>
      <input
        id="ed-formula"
        value={formula}
        maxLength={2000}
        aria-invalid={problem || props.error ? true : undefined}
        aria-describedby={props.error ? 'ed-formula-error ed-formula-check' : 'ed-formula-check'}
        onChange={(e) =>
          props.onChange(withLogic(field, { formula: e.target.value.trim() ? e.target.value : undefined }))
        }
      />
      <FieldError id="ed-formula-error" error={props.error} />
      <p id="ed-formula-check" className={problem ? 'field-error' : 'ed-hint'} aria-live="polite">
        {problem
          ? t('editor.logic.formula_error', { reason: problem })
          : formula.trim()
            ? msg('editor.logic.formula_ok')
            : t('editor.logic.formula_hint', { example: '{Quantity} * {Unit price}' })}
      </p>
    </div>
  );
}
