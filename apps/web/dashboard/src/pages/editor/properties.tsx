import { FIELD_TYPES, isOptionFieldType } from '@esign/domain';
import { msg, t } from '../../messages/index.ts';
import { Button } from '../../ui.tsx';
import { LogicSettings } from './logic-settings.tsx';
import { defaultOptions, type EditorField, isType, TYPE_LABEL } from './model.ts';
import { fieldNeedsOptions } from './operations.ts';

// The selected field's properties: what the signing page and sealing use (name, type, role,
// required, options), and its areas (a field may stand on several pages under one name).

interface SettingsProps {
  field: EditorField;
  /** every field of the template (the rule builder names them) */
  fields: EditorField[];
  roles: string[];
  onChange: (patch: Partial<Omit<EditorField, 'key'>>) => void;
  onOptions: (text: string) => void;
}

export function Properties(
  props: SettingsProps & {
    areaIndex: number;
    pages: { doc: number; page: number; label: string }[];
    onAddArea: (target: { doc: number; page: number }) => void;
    onDuplicate: () => void;
    onDelete: () => void;
    onClose: () => void;
    /** the editor's last save error (issue 46: a form logic refusal shows by its control) */
    saveError?: string | null;
  },
) {
  const { field } = props;
  const area = field.areas[props.areaIndex] ?? field.areas[0]!;
  const pageKey = (p: { doc: number; page: number }) => `${p.doc}:${p.page}`;
  return (
    <section className="ed-panel ed-props" aria-labelledby="ed-props">
      <div className="ed-props-head">
        <h2 id="ed-props">{msg('editor.field.title')}</h2>
        <Button small variant="ghost" onClick={props.onClose}>
          {msg('editor.field.done')}
        </Button>
      </div>
      <FieldSettings {...props} />
      <LogicSettings
        field={field}
        fields={props.fields}
        saveError={props.saveError}
        onChange={props.onChange}
      />
      <p className="ed-hint">
        {t('editor.field.position', {
          places: field.areas.length,
          page: area.page,
          x: pct(area.x),
          y: pct(area.y),
          w: pct(area.w),
          h: pct(area.h),
        })}
      </p>
      <div className="field">
        <label htmlFor="ed-area-page">{msg('editor.field.also_place')}</label>
        <select
          id="ed-area-page"
          value=""
          onChange={(e) => {
            const target = props.pages.find((p) => pageKey(p) === e.target.value);
            if (target) props.onAddArea(target);
          }}
        >
          <option value="">{msg('editor.field.choose_page')}</option>
          {props.pages.map((p) => (
            <option key={pageKey(p)} value={pageKey(p)}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="ed-actions">
        <Button small onClick={props.onDuplicate}>
          {msg('editor.field.duplicate')}
        </Button>
        <Button small variant="danger" onClick={props.onDelete}>
          {msg(field.areas.length > 1 ? 'editor.field.delete_place' : 'editor.field.delete')}
        </Button>
      </div>
      <p className="ed-hint">{msg('editor.field.keys')}</p>
    </section>
  );
}

/** Name, type, role, required and options. */
function FieldSettings(props: SettingsProps) {
  const { field } = props;
  return (
    <>
      <div className="field">
        <label htmlFor="ed-name">{msg('editor.field.name')}</label>
        <input
          id="ed-name"
          value={field.name}
          maxLength={200}
          onChange={(e) => props.onChange({ name: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="ed-type">{msg('editor.field.type')}</label>
        <select
          id="ed-type"
          value={field.type}
          onChange={(e) => {
            const type = e.target.value;
            if (!isType(type)) return;
            const options =
              isOptionFieldType(type) && field.options.length === 0 ? defaultOptions() : field.options;
            props.onChange({ type, options });
          }}
        >
          {FIELD_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABEL[t]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="ed-role">{msg('editor.field.role')}</label>
        <select id="ed-role" value={field.role} onChange={(e) => props.onChange({ role: e.target.value })}>
          {props.roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <label className="ed-check">
        <input
          type="checkbox"
          checked={field.required}
          onChange={(e) => props.onChange({ required: e.target.checked })}
        />
        {msg('editor.field.required')}
      </label>
      {isOptionFieldType(field.type) ? (
        <div className="field">
          <label htmlFor="ed-options">{msg('editor.field.options')}</label>
          <textarea
            id="ed-options"
            rows={4}
            value={field.options.join('\n')}
            aria-invalid={fieldNeedsOptions(field) || undefined}
            onChange={(e) => props.onOptions(e.target.value)}
          />
          {fieldNeedsOptions(field) ? (
            <p className="field-error">{msg('editor.field.options_missing')}</p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

const pct = (v: number) => `${Math.round(v * 1000) / 10}%`;
