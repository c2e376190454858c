import { CONDITION_OPS, type ConditionGroup, type ConditionOp, type ConditionRule } from '@esign/domain';
import { msg } from '../../messages/index.ts';
import { Button } from '../../ui.tsx';
import type { EditorField } from './model.ts';

// Issue 46: "show this field" and "require this field" built alike: always (or as the Required box
// says), or when all / any of some conditions hold (field, condition, value). One row per rule.

type Mode = 'always' | 'all' | 'any';
const NO_VALUE: ConditionOp[] = ['is_empty', 'is_not_empty'];

function modeOf(group: ConditionGroup | undefined): Mode {
  return !group ? 'always' : group.any ? 'any' : 'all';
}

/** The wording of one builder: its select's label and first choice, and its controls' id prefix. */
export interface BuilderWords {
  id: string;
  label: string;
  always: string;
  all: string;
  any: string;
}

export function ConditionBuilder(props: {
  words: BuilderWords;
  group: ConditionGroup | undefined;
  field: EditorField;
  fields: EditorField[];
  error?: string | undefined;
  onChange: (group: ConditionGroup | undefined) => void;
}) {
  const { words, group, field } = props;
  const mode = modeOf(group);
  const rules = group ? (group.any ?? group.all ?? []) : [];
  const others = props.fields.filter((f) => f.key !== field.key && f.name.trim() !== '');
  const setRules = (m: Mode, next: ConditionRule[]) =>
    props.onChange(
      m === 'always' || next.length === 0 ? undefined : m === 'any' ? { any: next } : { all: next },
    );
  const firstRule = (): ConditionRule => ({ field: others[0]?.name ?? '', op: 'is_not_empty' });
  const errorId = `${words.id}-error`;
  return (
    <div className="ed-builder">
      <div className="field">
        <label htmlFor={words.id}>{words.label}</label>
        <select
          id={words.id}
          value={mode}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
          onChange={(e) => {
            const m = e.target.value as Mode;
            setRules(m, m === 'always' ? [] : rules.length ? rules : [firstRule()]);
          }}
        >
          <option value="always">{words.always}</option>
          <option value="all">{words.all}</option>
          <option value="any">{words.any}</option>
        </select>
      </div>
      {rules.map((rule, i) => (
        <RuleRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rules have no identity but their place
          key={i}
          prefix={`${words.id === 'ed-show' ? 'ed-rule' : `${words.id}-rule`}-${i}`}
          title={`${words.label}: ${msg('editor.logic.rule_op')} ${i + 1}`}
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
      <FieldError id={errorId} error={props.error} />
    </div>
  );
}

/** A save refusal next to its control (announced when it appears). */
export function FieldError(props: { id: string; error: string | undefined }) {
  return props.error ? (
    <p id={props.id} className="field-error" role="alert">
      {props.error}
    </p>
  ) : null;
}

function RuleRow(props: {
  prefix: string;
  title: string;
  rule: ConditionRule;
  others: EditorField[];
  onChange: (rule: ConditionRule) => void;
  onRemove: () => void;
}) {
  const { rule } = props;
  const target = props.others.find((f) => f.name === rule.field);
  const id = (what: string) => `${props.prefix}-${what}`;
  return (
    <fieldset className="ed-rule">
      <legend className="sr-only">{props.title}</legend>
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
