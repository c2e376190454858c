import { areaToPercent } from '@esign/domain';
import { type CSSProperties, useState } from 'react';
import { msg, t } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';

// A request's documents as pages (issue 33 item 7): once sealed, the sealed files' pages (the
// values are drawn in them); before, the pages as sent with each value so far drawn where its
// field stands, and the fields still empty outlined with their role.

export type RequestDocuments = Outputs['dashboard']['requestDocuments'];
export type RequestField = RequestDocuments['fields'][number];
type Doc = RequestDocuments['documents'][number];

/** Pages shown at first; the rest on request (a 300-page contract is not 300 images at once). */
const FIRST_PAGES = 10;

const isPicture = (v: RequestField['value']): v is string =>
  typeof v === 'string' && v.startsWith('data:image/');

/** What a value says in words (`Yes` for a checked box, lists joined). */
function valueText(field: Pick<RequestField, 'type' | 'value'>): string {
  const v = field.value;
  if (field.type === 'checkbox')
    return v === true ? msg('requests.documents.yes') : msg('requests.documents.no');
  if (Array.isArray(v)) return v.join(', ');
  return v === null ? '' : String(v);
}

/** Each page's number and size in points, from the runs of equal pages. */
function pageSizes(doc: Doc): { number: number; width: number; height: number }[] {
  return doc.page_sizes
    .flatMap(([count, width, height]) => Array.from({ length: count }, () => ({ width, height })))
    .map((size, i) => ({ number: i + 1, ...size }));
}

function FieldOverlay({
  field,
  area,
  ratio,
}: {
  field: RequestField;
  area: RequestField['areas'][number];
  ratio: number;
}) {
  const box = areaToPercent(area);
  // Text is sized from the box's height; `cqw` is a hundredth of the page's width.
  const fontSize = `${Math.max(0.9, Math.min(area.h * ratio * 100 * 0.62, 2.4))}cqw`;
  const filled = field.value !== null && field.value !== false;
  const style: CSSProperties = { ...box, fontSize };
  return (
    <div
      className={`doc-field ${filled ? 'doc-field-filled' : 'doc-field-empty'} t-${field.type}`}
      style={style}
      aria-hidden="true"
      title={t('requests.documents.field_title', {
        name: field.name,
        role: field.role,
        state: filled ? 'filled' : field.required ? 'required' : 'optional',
      })}
      data-field={field.name}
    >
      {isPicture(field.value) ? (
        <img src={field.value} alt="" />
      ) : field.type === 'checkbox' ? (
        <span>{field.value === true ? '✓' : ''}</span>
      ) : filled ? (
        <span>{valueText(field)}</span>
      ) : (
        <span className="doc-field-role">{field.role}</span>
      )}
    </div>
  );
}

function Page({
  doc,
  number,
  size,
  fields,
}: {
  doc: Doc;
  number: number;
  size: { width: number; height: number };
  fields: RequestField[];
}) {
  const ratio = size.height / size.width;
  const here = doc.sealed
    ? []
    : fields.flatMap((f) =>
        f.areas
          .filter((a) => a.document === doc.index && a.page === number)
          .map((a, i) => ({ field: f, area: a, key: `${f.id}-${i}` })),
      );
  return (
    <li className="doc-page" style={{ aspectRatio: `${size.width} / ${size.height}` }}>
      <img
        src={doc.page_image_url.replace('{page}', String(number))}
        alt={t('requests.documents.page_alt', { number, name: doc.name })}
        loading="lazy"
        decoding="async"
      />
      {here.map((o) => (
        <FieldOverlay key={o.key} field={o.field} area={o.area} ratio={ratio} />
      ))}
    </li>
  );
}

function DocumentPages({ doc, fields }: { doc: Doc; fields: RequestField[] }) {
  const [all, setAll] = useState(false);
  const sizes = pageSizes(doc);
  const shown = all ? sizes : sizes.slice(0, FIRST_PAGES);
  return (
    <div className="doc">
      <h3>
        {doc.name}{' '}
        <span className="hint">· {t('requests.documents.page_count', { count: doc.page_count })}</span>
      </h3>
      <ol className="doc-pages" aria-label={t('requests.documents.pages_label', { name: doc.name })}>
        {shown.map((size) => (
          <Page key={size.number} doc={doc} number={size.number} size={size} fields={fields} />
        ))}
      </ol>
      {shown.length < sizes.length ? (
        <button type="button" className="btn btn-secondary btn-small" onClick={() => setAll(true)}>
          {t('requests.documents.show_all', { count: sizes.length })}
        </button>
      ) : null}
    </div>
  );
}

/** The documents section of a request's page. */
export function Documents({ data }: { data: RequestDocuments }) {
  const sealed = data.documents.every((d) => d.sealed);
  return (
    <section className="card" aria-labelledby="documents">
      <h2 id="documents">{msg('requests.documents.title')}</h2>
      <p className="hint">{sealed ? msg('requests.documents.sealed') : msg('requests.documents.as_sent')}</p>
      {data.documents.map((d) => (
        <DocumentPages key={d.index} doc={d} fields={data.fields} />
      ))}
    </section>
  );
}

/** One signer's values (text, dates, boxes, signature pictures), in the template's field order. */
export function SignerValues({ fields, signerName }: { fields: RequestField[]; signerName: string }) {
  const filled = fields.filter((f) => f.value !== null);
  if (filled.length === 0) return null;
  return (
    <dl className="signer-values" aria-label={t('requests.documents.values_label', { signer: signerName })}>
      {filled.map((f) => (
        <div key={f.id}>
          <dt>{f.name}</dt>
          <dd>
            {isPicture(f.value) ? (
              <img
                src={f.value}
                alt={t('requests.documents.picture_alt', { field: f.name, signer: signerName })}
                className="value-picture"
              />
            ) : (
              valueText(f)
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
