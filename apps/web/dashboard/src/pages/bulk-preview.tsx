// The first rows of a bulk send's file, as they will be sent, with each row's errors.

import { useId } from 'react';

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
                Row
              </th>
              <th scope="col">Check</th>
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
                      <strong>Not sent:</strong> {r.errors.join('; ')}
                    </span>
                  ) : (
                    <span className="row-ok">OK</span>
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
      <h2 id="bulk-preview">Preview</h2>
      <p role="status">
        {preview.total_rows} rows;{' '}
        {preview.invalid_rows ? `${preview.invalid_rows} with errors` : 'no errors'}.
      </p>
      <RowsTable
        columns={preview.columns}
        rows={preview.rows}
        caption={`First ${preview.rows.length} rows`}
      />
      {laterInvalid.length ? (
        <RowsTable columns={preview.columns} rows={laterInvalid} caption="Other rows with errors" />
      ) : null}
    </section>
  );
}
