import type { ReactNode } from 'react';
import { msg } from './messages/index.ts';

/**
 * A table that becomes labelled rows on a phone (each cell carries `data-label`). An empty column
 * name is the actions column, named for screen readers only.
 */
export function Table({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            {columns.map((name) => (
              <th key={name || 'actions'} scope="col">
                {name || <span className="sr-only">{msg('table.actions')}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
