import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../format.ts';
import { msg, t } from '../messages/index.ts';
import { Badge, Button, Confirm } from '../ui.tsx';
import { TemplateBrandSelect } from './brand-choice.tsx';

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
  brand_id?: number | undefined;
}

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

/** The row's name, folder, counts, roles and who made it when. */
function TemplateSummary({ template }: { template: TemplateItem }) {
  return (
    <div className="row-main">
      <strong>{template.name}</strong> {template.folder ? <Badge>{template.folder}</Badge> : null}
      {template.archived_at ? <Badge tone="muted">{msg('templates.row.archived')}</Badge> : null}
      <div className="hint template-counts">
        {t('templates.row.counts', {
          pages: template.page_count,
          documents: template.document_count,
          fields: template.field_count,
        })}
      </div>
      <div className="hint">
        {t(template.created_by ? 'templates.row.details_by' : 'templates.row.details', {
          roles: template.roles.join(', ') || msg('templates.row.no_roles'),
          date: formatDate(template.created_at),
          person: template.created_by ? template.created_by.name || template.created_by.email : '',
        })}
      </div>
    </div>
  );
}

export function TemplateRow({
  template,
  canWrite,
  onDuplicate,
  onArchive,
}: {
  template: TemplateItem;
  canWrite: boolean;
  onDuplicate: () => void;
  onArchive: () => void;
}) {
  const active = !template.archived_at;
  return (
    <li className="row template-row">
      <Thumbnail url={template.thumbnail_url} />
      <TemplateSummary template={template} />
      {canWrite && active ? <TemplateBrandSelect template={template} /> : null}
      <div className="row-actions">
        {active && canWrite ? (
          <>
            <Link className="btn btn-primary btn-small" to={`/send?template=${template.id}`}>
              {msg('templates.row.send')}
            </Link>
            <Link
              className="btn btn-secondary btn-small"
              to={`/bulk?template=${template.id}`}
              aria-label={t('templates.row.bulk_send_label', { name: template.name })}
            >
              {msg('templates.row.bulk_send')}
            </Link>
          </>
        ) : null}
        <Link
          className="btn btn-secondary btn-small"
          to={`/templates/${template.id}/link`}
          aria-label={t('templates.row.public_link_label', { name: template.name })}
        >
          {msg('templates.row.public_link')}
        </Link>
        <a className="btn btn-secondary btn-small" href={template.edit_url}>
          {msg('templates.row.edit_fields')}
        </a>
        {canWrite ? (
          <Button
            small
            onClick={onDuplicate}
            aria-label={t('templates.row.duplicate_label', { name: template.name })}
          >
            {msg('templates.row.duplicate')}
          </Button>
        ) : null}
        {canWrite && active ? (
          <Confirm
            trigger={
              <Button
                small
                variant="danger"
                aria-label={t('templates.row.archive_label', { name: template.name })}
              >
                {msg('templates.row.archive')}
              </Button>
            }
            title={t('templates.row.archive_title', { name: template.name })}
            description={msg('templates.row.archive_body')}
            confirmLabel={msg('templates.row.archive')}
            onConfirm={onArchive}
          />
        ) : null}
      </div>
    </li>
  );
}
