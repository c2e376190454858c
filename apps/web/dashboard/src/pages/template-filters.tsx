import { msg } from '../messages/index.ts';

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
        <span className="sr-only">{msg('templates.search.label')}</span>
        <input
          type="search"
          placeholder={msg('templates.search.placeholder')}
          value={p.q}
          onChange={(e) => p.onQ(e.target.value)}
        />
      </label>
      <label className="inline">
        {msg('templates.filter.folder')}{' '}
        <select value={p.folder} onChange={(e) => p.onFolder(e.target.value)}>
          <option value="">{msg('templates.filter.all_folders')}</option>
          {p.folders.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        <input type="checkbox" checked={p.archived} onChange={(e) => p.onArchived(e.target.checked)} />{' '}
        {msg('templates.filter.archived_only')}
      </label>
    </search>
  );
}
