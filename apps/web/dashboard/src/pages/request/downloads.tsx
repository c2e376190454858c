import { msg, t } from '../../messages/index.ts';
import { Loading } from '../../ui.tsx';

interface SealedFiles {
  documents: { name: string; url: string }[];
  audit_trail_url: string | null;
  combined_document_url: string | null;
}

/**
 * The sealed files of a completed request (while sealing runs, a note that it is coming), from
 * `dashboard.requestDocuments`: they download under names led by the request's brand (issue 44).
 */
export function Downloads({ files: r }: { files: SealedFiles | null | undefined }) {
  return (
    <section className="card" aria-labelledby="downloads">
      <h2 id="downloads">{msg('requests.downloads.title')}</h2>
      {r?.audit_trail_url ? (
        <ul className="plain downloads">
          {r.documents.map((d) => (
            <li key={d.url}>
              <a href={d.url} download>
                {t('requests.downloads.file', { name: d.name })}
              </a>
            </li>
          ))}
          <li>
            <a href={r.audit_trail_url} download>
              {msg('requests.downloads.audit_trail')}
            </a>
          </li>
          {r.combined_document_url ? (
            <li>
              <a href={r.combined_document_url} download>
                {msg('requests.downloads.combined')}
              </a>
            </li>
          ) : null}
        </ul>
      ) : (
        <Loading label={msg('requests.downloads.sealing')} />
      )}
    </section>
  );
}
