// Issue 46: the server's save refusals (422 invalid_field) shown next to the rule builder's control
// they concern. The server words two kinds of refusal; this only sorts them, it decides nothing:
// - the schema's: `fields[3].validation.step: Number must be greater than 0` (the field's place);
// - the form logic check's: `fields "VAT", "Total": "VAT": validation.pattern is not a valid
//   regular expression; "Total": formula: …` (the field's name, then the key at fault).

/** The builder's controls a refusal can stand next to; `logic` is the form logic as a whole. */
export type LogicControl =
  | 'show_when'
  | 'required_when'
  | 'formula'
  | 'format'
  | 'validation.preset'
  | 'validation.pattern'
  | 'validation.message'
  | 'validation.min_length'
  | 'validation.max_length'
  | 'validation.min'
  | 'validation.max'
  | 'validation.step'
  | 'validation.earliest'
  | 'validation.latest'
  | 'logic';

export type LogicErrors = Partial<Record<LogicControl, string>>;

const CONTROLS = new Set<string>([
  'show_when',
  'required_when',
  'formula',
  'format',
  'validation.preset',
  'validation.pattern',
  'validation.message',
  'validation.min_length',
  'validation.max_length',
  'validation.min',
  'validation.max',
  'validation.step',
  'validation.earliest',
  'validation.latest',
]);

/** The control a problem's text (after the field's name) starts with: `validation.min is…` → validation.min. */
function controlOf(text: string): LogicControl {
  const key = /^(show_when|required_when|formula|format|validation\.[a-z_]+)\b/.exec(text)?.[1];
  if (key && CONTROLS.has(key)) return key as LogicControl;
  if (/^a formula\b/.test(text)) return 'formula';
  return 'logic';
}

function add(out: LogicErrors, control: LogicControl, text: string) {
  out[control] = out[control] ? `${out[control]} ${text}` : text;
}

/**
 * The refusals of `error` (the editor's last save error) that concern the field at `index` named
 * `name`, by control. Nothing when the error is of another kind or names other fields.
 */
export function logicErrorsFor(error: string | null | undefined, name: string, index: number): LogicErrors {
  const out: LogicErrors = {};
  if (!error) return out;
  const schema = /^fields\[(\d+)\]\.([^:\s]+): (.*)$/s.exec(error);
  if (schema) {
    const [, at = '', path = '', text = ''] = schema;
    if (Number(at) !== index) return out;
    const [head = '', second = ''] = path.split(/[.[]/);
    if (head === 'validation') add(out, controlOf(`validation.${second}`), `${path}: ${text}`);
    else if (CONTROLS.has(head)) add(out, head as LogicControl, `${path}: ${text}`);
    return out;
  }
  const body = /^fields (?:"[^"]*"(?:, )?)+: (.*)$/s.exec(error)?.[1];
  if (!body || !name) return out;
  const own = `"${name}": `;
  // problems are joined with '; ', which a problem's own words may hold too
  for (const problem of body.split(/; (?="[^"]*": |reference cycle: )/)) {
    if (problem.startsWith(own)) add(out, controlOf(problem.slice(own.length)), problem.slice(own.length));
    else if (/^reference cycle: /.test(problem) && problem.includes(`"${name}"`)) add(out, 'logic', problem);
  }
  return out;
}
