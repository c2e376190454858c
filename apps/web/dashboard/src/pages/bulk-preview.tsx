// The first rows of a bulk send's file, as they will be sent, with each row's errors.

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

function RowsTable({ columns, rows, caption }: { columns: string[]; rows: Row[]; caption: string }) {
  return (
    <div className="table-wrap">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            <th scope="col">Check</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.row_number} className={r.errors.length ? 'row-invalid' : undefined}>
              <th scope="row">{r.row_number}</th>
              {columns.map((c) => (
                <td key={c}>{show(r.values[c])}</td>
              ))}
              <td>{r.errors.length ? <span className="field-error">{r.errors.join('; ')}</span> : 'OK'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
