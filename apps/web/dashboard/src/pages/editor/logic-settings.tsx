import {
  CONDITION_OPS,
  type ConditionGroup,
  type ConditionOp,
  type ConditionRule,
  type FieldLogic,
  FormulaError,
  parseFormula,
  VALIDATION_PRESETS,
  type ValidationPreset,
} from '@esign/domain';
import { msg, t } from '../../messages/index.ts';
import { Button } from '../../ui.tsx';
import type { EditorField } from './model.ts';

// Issue 46: a rule builder a non-programmer can use. "Show this field" always, or when all / any
// of some conditions hold (field, condition, value); a number field's formula with a live check
// (the evaluator the signing page and the server run); a ready-made check for text. The preview
// (the signing page as a role sees it) evaluates what is built here. The server checks the whole
// template's logic again when the editor saves (cycles, references: 422 shown as a save error).

type Mode = 'always' | 'all' | 'any';
const NO_VALUE: ConditionOp[] = ['is_empty', 'is_not_empty'];

function modeOf(group: ConditionGroup | undefined): Mode {
  return !group ? 'always' : group.any ? 'any' : 'all';
}

function withLogic(field: EditorField, patch: Partial<FieldLogic>): { logic: FieldLogic | undefined } {
  const next: FieldLogic = { ...field.logic, ...patch };
  for (const k of Object.keys(next) as (keyof FieldLogic)[]) if (next[k] === undefined) delete next[k];
  return { logic: Object.keys(next).length ? next : undefined };
}

export function LogicSettings(props: {
  field: EditorField;
  fields: EditorField[];
  onChange: (patch: { logic: FieldLogic | undefined }) => void;
}) {
  const { field } = props;
  const group = field.logic?.show_when;
  const mode = modeOf(group);
  const rules = group ? (group.any ?? group.all ?? []) : [];
  const others = props.fields.filter((f) => f.key !== field.key && f.name.trim() !== '');
  const setRules = (m: Mode, next: ConditionRule[]) =>
    props.onChange(
      withLogic(field, {
        show_when:
          m === 'always' || next.length === 0 ? undefined : m === 'any' ? { any: next } : { all: next },
      }),
    );
  const firstRule = (): ConditionRule => ({ field: others[0]?.name ?? '', op: 'is_not_empty' });
  return (
    <fieldset className="ed-logic">
      <legend>{msg('editor.logic.title')}</legend>
      <div className="field">
        <label htmlFor="ed-show">{msg('editor.logic.show')}</label>
        <select
          id="ed-show"
          value={mode}
          onChange={(e) => {
            const m = e.target.value as Mode;
            setRules(m, m === 'always' ? [] : rules.length ? rules : [firstRule()]);
          }}
        >
          <option value="always">{msg('editor.logic.show_always')}</option>
          <option value="all">{msg('editor.logic.show_all')}</option>
          <option value="any">{msg('editor.logic.show_any')}</option>
        </select>
      </div>
      {rules.map((rule, i) => (
        <RuleRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rules have no identity but their place
          key={i}
          index={i}
          rule={rule}
          others={others}
          onChange={(r) =>
            setRules(
              mode,
              rules.map((x, j) => (j === i ? r : x)),
            )
          }
          onRemove={() =>
            setRules(
              rules.length > 1 ? mode : 'always',
              rules.filter((_, j) => j !== i),
            )
          }
        />
      ))}
      {mode !== 'always' ? (
        <Button small onClick={() => setRules(mode, [...rules, firstRule()])}>
          {msg('editor.logic.add_rule')}
        </Button>
      ) : null}
      {field.type === 'number' ? <FormulaInput field={field} onChange={props.onChange} /> : null}
      {field.type === 'text' || field.type === 'phone' ? (
        <PresetSelect field={field} onChange={props.onChange} />
      ) : null}
    </fieldset>
  );
}

/** A ready-made check of a text or phone field's answer. */
function PresetSelect(props: {
  field: EditorField;
  onChange: (patch: { logic: FieldLogic | undefined }) => void;
}) {
  const { field } = props;
  return (
    <div className="field">
      <label htmlFor="ed-preset">{msg('editor.logic.preset')}</label>
      <select
        id="ed-preset"
        value={field.logic?.validation?.preset ?? ''}
        onChange={(e) => {
          const preset = (e.target.value || undefined) as ValidationPreset | undefined;
          const validation = { ...field.logic?.validation, preset };
          if (!preset) delete validation.preset;
          props.onChange(
            withLogic(field, { validation: Object.keys(validation).length ? validation : undefined }),
          );
        }}
      >
        <option value="">{msg('editor.logic.preset_none')}</option>
        {VALIDATION_PRESETS.map((p) => (
          <option key={p} value={p}>
            {msg(`editor.logic.preset.${p}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

function RuleRow(props: {
  index: number;
  rule: ConditionRule;
  others: EditorField[];
  onChange: (rule: ConditionRule) => void;
  onRemove: () => void;
}) {
  const { rule, index } = props;
  const target = props.others.find((f) => f.name === rule.field);
  const id = (what: string) => `ed-rule-${index}-${what}`;
  return (
    <fieldset className="ed-rule">
      <legend className="sr-only">{`${msg('editor.logic.rule_op')} ${index + 1}`}</legend>
      <label htmlFor={id('field')}>{msg('editor.logic.rule_field')}</label>
      <select
        id={id('field')}
        value={rule.field}
        onChange={(e) => props.onChange({ ...rule, field: e.target.value })}
      >
        {props.others.map((f) => (
          <option key={f.key} value={f.name}>
            {f.name}
          </option>
        ))}
      </select>
      <label htmlFor={id('op')}>{msg('editor.logic.rule_op')}</label>
      <select
        id={id('op')}
        value={rule.op}
        onChange={(e) => {
          const op = e.target.value as ConditionOp;
          props.onChange(
            NO_VALUE.includes(op) ? { field: rule.field, op } : { ...rule, op, value: rule.value ?? '' },
          );
        }}
      >
        {CONDITION_OPS.map((op) => (
          <option key={op} value={op}>
            {msg(`editor.logic.op.${op}`)}
          </option>
        ))}
      </select>
      {NO_VALUE.includes(rule.op) ? null : target?.options.length ? (
        <>
          <label htmlFor={id('value')}>{msg('editor.logic.rule_value')}</label>
          <select
            id={id('value')}
            value={String(rule.value ?? '')}
            onChange={(e) => props.onChange({ ...rule, value: e.target.value })}
          >
            <option value="" />
            {target.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </>
      ) : (
        <>
          <label htmlFor={id('value')}>{msg('editor.logic.rule_value')}</label>
          <input
            id={id('value')}
            value={String(rule.value ?? '')}
            onChange={(e) => {
              const raw = e.target.value;
              const numeric = (rule.op === 'gt' || rule.op === 'lt') && /^-?\d+(\.\d+)?$/.test(raw);
              props.onChange({ ...rule, value: numeric ? Number(raw) : raw });
            }}
          />
        </>
      )}
      <Button small variant="ghost" onClick={props.onRemove}>
        {msg('editor.logic.remove_rule')}
      </Button>
    </fieldset>
  );
}

function FormulaInput(props: {
  field: EditorField;
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
        aria-invalid={problem ? true : undefined}
        aria-describedby="ed-formula-check"
        onChange={(e) =>
          props.onChange(withLogic(field, { formula: e.target.value.trim() ? e.target.value : undefined }))
        }
      />
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
