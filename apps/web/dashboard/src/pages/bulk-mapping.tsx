import { type FormEvent, useState } from 'react';
import { msg, t } from '../messages/index.ts';
import { CardForm, SelectField } from '../ui.tsx';

// The column mapping of a bulk send: for each role, the columns of name, email, phone and part
// (issue 47: signer, approver or viewer per row).

export interface Mapping {
  signers: {
    role: string;
    name?: string;
    email?: string;
    phone?: string;
    /** Issue 47: the column of the role's part per row (signer, approver, viewer). */
    kind?: string;
    prefill?: Record<string, string>;
  }[];
}

interface Preview {
  template: { roles: string[] };
  columns: string[];
  mapping: Mapping;
}

const KEYS = ['name', 'email', 'phone', 'kind'] as const;

export function BulkMappingForm({
  preview,
  busy,
  onCheck,
}: {
  preview: Preview;
  busy: boolean;
  onCheck: (m: Mapping) => void;
}) {
  const [mapping, setMapping] = useState<Mapping>(() => ({
    signers: preview.template.roles.map(
      (role) => preview.mapping.signers.find((s) => s.role === role) ?? { role },
    ),
  }));
  const options = [
    { value: '', label: msg('bulk.mapping.none') },
    ...preview.columns.map((c) => ({ value: c, label: c })),
  ];
  const set = (i: number, key: (typeof KEYS)[number], column: string) =>
    setMapping((m) => ({
      signers: m.signers.map((s, j) => {
        if (j !== i) return s;
        const next = { ...s };
        if (column) next[key] = column;
        else delete next[key];
        return next;
      }),
    }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onCheck(mapping);
  };
  return (
    <CardForm
      id="bulk-mapping"
      title={msg('bulk.mapping.title')}
      intro={<p className="hint">{msg('bulk.mapping.intro')}</p>}
      onSubmit={submit}
      error={null}
      busy={busy}
      submitLabel={msg('bulk.mapping.check')}
    >
      {mapping.signers.map((s, i) => (
        <fieldset key={s.role} className="row-fields">
          <legend>{s.role}</legend>
          {KEYS.map((key) => (
            <SelectField
              key={key}
              label={t('bulk.mapping.column', { role: s.role, key })}
              value={s[key] ?? ''}
              onChange={(e) => set(i, key, e.target.value)}
              options={options}
            />
          ))}
          {s.prefill ? (
            <p className="hint">
              {t('bulk.mapping.prefilled', {
                fields: Object.entries(s.prefill)
                  .map(([f, c]) => `${f} ← ${c}`)
                  .join(', '),
              })}
            </p>
          ) : null}
        </fieldset>
      ))}
    </CardForm>
  );
}
