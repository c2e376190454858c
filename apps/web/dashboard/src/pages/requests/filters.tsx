import { msg } from '../../messages/index.ts';

const FILTERS = [
  { value: '', label: msg('requests.filter.all') },
  { value: 'open', label: msg('requests.filter.open') },
  { value: 'completed', label: msg('requests.filter.completed') },
  { value: 'declined', label: msg('requests.filter.declined') },
  { value: 'expired', label: msg('requests.filter.expired') },
  { value: 'canceled', label: msg('requests.filter.canceled') },
];

/** Search by signer and a status filter, both kept in the address (`?q=`, `?status=`). */
export function RequestFilters({
  q,
  status,
  set,
}: {
  q: string;
  status: string;
  set: (key: 'q' | 'status', value: string) => void;
}) {
  return (
    <search className="filters">
      <label className="inline grow">
        <span className="sr-only">{msg('requests.search.label')}</span>
        <input
          type="search"
          placeholder={msg('requests.search.placeholder')}
          value={q}
          onChange={(e) => set('q', e.target.value)}
        />
      </label>
      <label className="inline">
        {msg('requests.filter.status')}{' '}
        <select value={status} onChange={(e) => set('status', e.target.value)}>
          {FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
    </search>
  );
}
