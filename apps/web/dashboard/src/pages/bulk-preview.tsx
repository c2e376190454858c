// The first rows of a bulk send's file, as they will be sent, with each row's errors.

import { useId } from 'react';
import { msg, t, tx } from '../messages/index.ts';

interface Row {
  row_number: number;
  values: Record<string, unknown>;
  errors: string[];
}

interface Preview {
  columns: string[];
  total_rows: number;
  invalid_rows: number;
  rows: Row[];
  invalid: Row[];
}

const show = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/**
 * Rows as they will be sent: scrolls within its own box (both ways on a phone), the header and the
 * row numbers stay in view, and each row says whether it will be sent (its errors beside its
 * number, so they are seen without scrolling sideways).
 */
function RowsTable({ columns, rows, caption }: { columns: string[]; rows: Row[]; caption: string }) {
  const id = useId();
  return (
    <>
      <h3 id={id} className="bulk-caption">
        {caption}
      </h3>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it */}
      <section className="table-wrap bulk-table-wrap" tabIndex={0} aria-labelledby={id}>
        <table className="bulk-table" aria-labelledby={id}>
          <thead>
            <tr>
              <th scope="col" className="row-number">
                {msg('bulk.preview.row')}
              </th>
              <th scope="col">{msg('bulk.preview.check')}</th>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.row_number} className={r.errors.length ? 'row-invalid' : undefined}>
                <th scope="row" className="row-number">
                  {r.row_number}
                </th>
                <td className="row-check">
                  {r.errors.length ? (
                    <span className="field-error">
                      {tx('bulk.preview.not_sent', {
                        b: (c) => <strong>{c}</strong>,
                        errors: r.errors.join('; '),
                      })}
                    </span>
                  ) : (
                    <span className="row-ok">{msg('bulk.preview.ok')}</span>
                  )}
                </td>
                {columns.map((c) => (
                  <td key={c} title={show(r.values[c])}>
                    {show(r.values[c])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

export function BulkPreviewTable({ preview }: { preview: Preview }) {
  const firstNumbers = new Set(preview.rows.map((r) => r.row_number));
  const laterInvalid = preview.invalid.filter((r) => !firstNumbers.has(r.row_number));
  return (
    <section className="card" aria-labelledby="bulk-preview">
      <h2 id="bulk-preview">{msg('bulk.preview.title')}</h2>
      <p role="status">
        {t('bulk.preview.summary', { total: preview.total_rows, invalid: preview.invalid_rows })}
      </p>
      <RowsTable
        columns={preview.columns}
        rows={preview.rows}
        caption={t('bulk.preview.first_rows', { count: preview.rows.length })}
      />
      {laterInvalid.length ? (
        <RowsTable
          columns={preview.columns}
          rows={laterInvalid}
          caption={msg('bulk.preview.other_invalid')}
        />
      ) : null}
    </section>
  );
}
