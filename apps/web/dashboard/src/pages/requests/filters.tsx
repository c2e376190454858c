const FILTERS = [
  { value: '', label: 'All' },
  { value: 'open', label: 'Waiting for signatures' },
  { value: 'completed', label: 'Completed' },
  { value: 'declined', label: 'Declined' },
  { value: 'expired', label: 'Expired' },
  { value: 'canceled', label: 'Canceled' },
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
        <span className="sr-only">Search by signer name, email or phone</span>
        <input
          type="search"
          placeholder="Search signers by name, email or phone"
          value={q}
          onChange={(e) => set('q', e.target.value)}
        />
      </label>
      <label className="inline">
        Status{' '}
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
