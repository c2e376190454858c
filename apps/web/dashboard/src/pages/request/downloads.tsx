import { Loading } from '../../ui.tsx';

interface RequestFiles {
  documents?: { name: string; url: string }[] | null | undefined;
  audit_trail_url?: string | null | undefined;
  combined_document_url?: string | null | undefined;
}

/** The sealed files of a completed request (while sealing runs, a note that it is coming). */
export function Downloads({ request: r }: { request: RequestFiles }) {
  return (
    <section className="card" aria-labelledby="downloads">
      <h2 id="downloads">Signed documents</h2>
      {r.audit_trail_url ? (
        <ul className="plain downloads">
          {r.documents?.map((d) => (
            <li key={d.url}>
              <a href={d.url} download>
                {d.name}.pdf
              </a>
            </li>
          ))}
          <li>
            <a href={r.audit_trail_url} download>
              Audit trail
            </a>
          </li>
          {r.combined_document_url ? (
            <li>
              <a href={r.combined_document_url} download>
                Everything in one PDF
              </a>
            </li>
          ) : null}
        </ul>
      ) : (
        <Loading label="Sealing the signed documents…" />
      )}
    </section>
  );
}
