// The Templates page's search: name, folder, archived only.

export function TemplateFilters(p: {
  q: string;
  onQ: (q: string) => void;
  folder: string;
  onFolder: (f: string) => void;
  folders: string[];
  archived: boolean;
  onArchived: (a: boolean) => void;
}) {
  return (
    <search className="filters">
      <label className="inline grow">
        <span className="sr-only">Search templates by name</span>
        <input
          type="search"
          placeholder="Search by name"
          value={p.q}
          onChange={(e) => p.onQ(e.target.value)}
        />
      </label>
      <label className="inline">
        Folder{' '}
        <select value={p.folder} onChange={(e) => p.onFolder(e.target.value)}>
          <option value="">All folders</option>
          {p.folders.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        <input type="checkbox" checked={p.archived} onChange={(e) => p.onArchived(e.target.checked)} />{' '}
        Archived only
      </label>
    </search>
  );
}
