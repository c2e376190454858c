import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../format.ts';
import { Badge, Button, Confirm } from '../ui.tsx';

// One template in the Templates list, with what can be done to it.

interface TemplateItem {
  id: number;
  name: string;
  folder: string | null;
  roles: string[];
  edit_url: string;
  archived_at: string | null;
  created_at: string;
  created_by: { name: string | null; email: string } | null;
  page_count: number;
  field_count: number;
  document_count: number;
  thumbnail_url: string | null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The first page as a small picture, loaded when the row scrolls into view. Until the image is
 * there (the page may still be rendering) or when it cannot be drawn, a plain sheet stands in.
 */
function Thumbnail({ url }: { url: string | null }) {
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');
  return (
    <div className={`thumb thumb-${url ? state : 'failed'}`} aria-hidden="true">
      {url && state !== 'failed' ? (
        <img
          src={url}
          alt=""
          loading="lazy"
          decoding="async"
          onLoad={() => setState('shown')}
          onError={() => setState('failed')}
        />
      ) : null}
    </div>
  );
}

export function TemplateRow({
  template: t,
  canWrite,
  onDuplicate,
  onArchive,
}: {
  template: TemplateItem;
  canWrite: boolean;
  onDuplicate: () => void;
  onArchive: () => void;
}) {
  const active = !t.archived_at;
  return (
    <li className="row template-row">
      <Thumbnail url={t.thumbnail_url} />
      <div className="row-main">
        <strong>{t.name}</strong> {t.folder ? <Badge>{t.folder}</Badge> : null}
        {t.archived_at ? <Badge tone="muted">archived</Badge> : null}
        <div className="hint template-counts">
          {plural(t.page_count, 'page')}
          {t.document_count > 1 ? ` in ${plural(t.document_count, 'document')}` : ''} ·{' '}
          {plural(t.field_count, 'field')}
        </div>
        <div className="hint">
          Roles: {t.roles.join(', ') || 'none yet'} · created {formatDate(t.created_at)}
          {t.created_by ? ` by ${t.created_by.name || t.created_by.email}` : ''}
        </div>
      </div>
      <div className="row-actions">
        {active && canWrite ? (
          <>
            <Link className="btn btn-primary btn-small" to={`/send?template=${t.id}`}>
              Send
            </Link>
            <Link
              className="btn btn-secondary btn-small"
              to={`/bulk?template=${t.id}`}
              aria-label={`Bulk send ${t.name}`}
            >
              Bulk send
            </Link>
          </>
        ) : null}
        <Link
          className="btn btn-secondary btn-small"
          to={`/templates/${t.id}/link`}
          aria-label={`Public link of ${t.name}`}
        >
          Public link
        </Link>
        <a className="btn btn-secondary btn-small" href={t.edit_url}>
          Edit fields
        </a>
        {canWrite ? (
          <Button small onClick={onDuplicate} aria-label={`Duplicate ${t.name}`}>
            Duplicate
          </Button>
        ) : null}
        {canWrite && active ? (
          <Confirm
            trigger={
              <Button small variant="danger" aria-label={`Archive ${t.name}`}>
                Archive
              </Button>
            }
            title={`Archive “${t.name}”?`}
            description="It can no longer be sent, and signing links of its unfinished requests stop working. There is no undo."
            confirmLabel="Archive"
            onConfirm={onArchive}
          />
        ) : null}
      </div>
    </li>
  );
}
