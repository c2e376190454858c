/**
 * One cell of a CSV file this service writes (RFC 4180), safe to open in a spreadsheet: a cell a
 * spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return) gets a leading single quote, as OWASP's CSV-injection guidance says, and every such
 * cell, like any holding a quote, comma or line break, is quoted.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  const formula = /^[=+\-@\t\r]/.test(text);
  const safe = formula ? `'${text}` : text;
  return formula || /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A CSV file from rows of cells: each cell through `csvCell`, CRLF line ends (RFC 4180). */
export function csvFile(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
