import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { background } from '../background.ts';
import { msg, t } from '../messages/index.ts';
import type { Outputs } from '../router-types.ts';
import { trpc } from '../trpc.ts';
import { Badge, Button } from '../ui.tsx';
import { AuthLayout } from './auth/layout.tsx';
import { plainSummary, verifyProblem } from './verify-words.ts';

// The public verify page (issue 30): anyone who holds a PDF, with no account and no key, drops it
// here and reads whether it is a document this service sealed, unchanged, in plain words. The file
// goes to documents.verifyPublic (the same verification as POST /documents/verify) and is not kept.

type Verification = Outputs['documents']['verifyPublic'];
type Signature = Verification['signatures'][number];

/** What the server takes (25 MB); a larger file is refused here before it is sent. */
const MAX_BYTES = 25 * 1024 * 1024;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(t('verify.could_not_read', { name: file.name })));
    reader.readAsDataURL(file);
  });

const HEADLINE: Record<Verification['verdict'], { tone: string; title: string }> = {
  authentic: { tone: 'good', title: msg('verify.verdict.authentic') },
  intact_signature: { tone: 'warn', title: msg('verify.verdict.intact_signature') },
  modified: { tone: 'bad', title: msg('verify.verdict.modified') },
  unsigned: { tone: 'muted', title: msg('verify.verdict.unsigned') },
};

const LEVEL_WORDS: Record<string, string> = {
  'B-B': msg('verify.level.b_b'),
  'B-T': msg('verify.level.b_t'),
  'B-LT': msg('verify.level.b_lt'),
  'B-LTA': msg('verify.level.b_lta'),
};

/** As the audit trail writes times: 2026-11-27 20:25 UTC (the same in every reader's locale). */
const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : null);

/** A certificate subject's common name ("CN=esign document sealing, O=..." → "esign document sealing"). */
const commonName = (subject: string | null) => subject?.match(/CN=([^,]+)/)?.[1]?.trim() ?? subject;

function whatItIs(v: Verification): string | null {
  const m = v.match;
  if (!m) return null;
  const test = m.test_mode;
  switch (m.kind) {
    case 'document':
      return t('verify.what.document', { name: m.name, test });
    case 'audit_trail':
      // The server names the trail "<document> - audit trail"; the message says which document.
      return t('verify.what.audit_trail', { name: m.name.replace(/ - audit trail$/, ''), test });
    case 'combined':
      return t('verify.what.combined', { name: m.name, test });
    case 'signer_copy':
      return [
        t('verify.what.signer_copy', { number: m.signer_number, name: m.name, test }),
        msg(m.final_document_exists ? 'verify.what.final_exists' : 'verify.what.final_not_yet'),
      ].join(' ');
  }
}

/** The changes in plain words: which pages show them ("Page 1", "Pages 1 and 3"), and any outside the pages. */
function changedWhere(changes: Verification['changes']): string | null {
  if (changes.length === 0) return null;
  const pages = [...new Set(changes.map((c) => c.page).filter((p): p is number => p !== null))].sort(
    (a, b) => a - b,
  );
  const listed =
    pages.length === 0
      ? null
      : t('verify.changed.pages', {
          count: pages.length,
          others: pages.slice(0, -1).join(', '),
          last: pages.at(-1),
        });
  const elsewhere = changes.some((c) => c.page === null);
  if (listed && elsewhere) return t('verify.changed.pages_and_file', { pages: listed });
  return listed ?? msg('verify.changed.file');
}

/**
 * Whether the server's (English) description of a change already says its page ("content of page 1
 * changed"), so the page is not named twice.
 */
const namesItsPage = (c: Verification['changes'][number]) =>
  c.page !== null && new RegExp(`\\bpage ${c.page}\\b`).test(c.description);

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** Issue 44: the brand of the request the file belongs to, as its signers saw it. */
function MatchBrand({ brand }: { brand: NonNullable<Verification['match']>['brand'] | null }) {
  if (!brand) return null;
  return (
    <p className="verify-brand" data-testid="verify-brand">
      {brand.logo ? <img className="verify-brand-logo" src={brand.logo} alt="" /> : null}
      <strong dir="auto">{t('verify.brand', { name: brand.name })}</strong>
    </p>
  );
}

/** Each signature of the file, then each change made after a signature. */
function SignaturesAndChanges({ v }: { v: Verification }) {
  return (
    <>
      <h3>{msg('verify.signatures.title')}</h3>
      <ul data-testid="verify-signatures">
        {v.signatures.map((s) => (
          <li
            key={`${s.revision}-${s.kind}-${s.signer_certificate_sha256}`}
            data-level={s.modification_level}
          >
            {t('verify.signature.who', {
              kind: s.kind,
              name: commonName(s.signer_subject) ?? msg('verify.unknown_signer'),
              valid: s.valid,
            })}{' '}
            {t('verify.signature.after', { level: s.modification_level })}
            {s.modification_level !== 'none'
              ? ` ${t('verify.signature.permits', { allowed: !s.modified_after_signing })}`
              : null}
          </li>
        ))}
      </ul>
      {v.changes.length > 0 ? (
        <>
          <h3>{msg('verify.changes.title')}</h3>
          <ul data-testid="verify-changes">
            {v.changes.map((c) => (
              <li key={`${c.revision}-${c.kind}-${c.page}-${c.description}`}>
                {c.page && !namesItsPage(c)
                  ? t('verify.change.on_page', {
                      page: c.page,
                      description: c.description,
                      revision: c.revision,
                    })
                  : t('verify.change.text', { description: c.description, revision: c.revision })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

function Result({ v }: { v: Verification }) {
  const head = HEADLINE[v.verdict];
  const seal: Signature | undefined = v.signatures.filter((s) => s.kind !== 'document_timestamp').at(-1);
  const sealedAt = seal ? (when(seal.timestamp_time) ?? when(seal.signing_time)) : null;
  const what = whatItIs(v);
  return (
    <section aria-labelledby="verdict" className="verify-result" data-testid="verify-result">
      <MatchBrand brand={v.match?.brand ?? null} />
      <h2 id="verdict" className={`verify-verdict verify-${head.tone}`} aria-live="polite">
        <Badge tone={head.tone}>{t('verify.verdict.badge', { verdict: v.verdict })}</Badge> {head.title}
      </h2>
      <p data-testid="verify-plain">{plainSummary(v)}</p>
      <details className="verify-details">
        <summary>{msg('verify.details')}</summary>
        <p data-testid="verify-summary">{v.summary}</p>
      </details>
      <dl className="verify-facts">
        {what ? <Fact label={msg('verify.fact.what')}>{what}</Fact> : null}
        {changedWhere(v.changes) ? (
          <Fact label={msg('verify.fact.changed')}>
            <span data-testid="verify-changed-where">{changedWhere(v.changes)}</span>
          </Fact>
        ) : null}
        {seal ? (
          <Fact label={msg('verify.fact.sealed_by')}>
            {t('verify.sealed_by', {
              name: commonName(seal.signer_subject) ?? msg('verify.unknown_signer'),
              service: seal.certificate_is_service,
            })}
          </Fact>
        ) : null}
        {sealedAt ? (
          <Fact label={msg('verify.fact.when')}>
            {t(seal?.timestamp_time ? 'verify.when.timestamped' : 'verify.when.stated', { time: sealedAt })}
          </Fact>
        ) : null}
        {v.level ? <Fact label={msg('verify.fact.level')}>{LEVEL_WORDS[v.level] ?? v.level}</Fact> : null}
        <Fact label={msg('verify.fact.sha256')}>
          <code className="verify-hash">{v.sha256}</code>
        </Fact>
      </dl>
      <SignaturesAndChanges v={v} />
    </section>
  );
}

export function VerifyPage() {
  const inputId = useId();
  const [over, setOver] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const verify = useMutation(trpc.documents.verifyPublic.mutationOptions());

  const choose = async (list: FileList | null) => {
    const file = list?.[0];
    if (!file) return;
    verify.reset();
    setProblem(null);
    if (file.size > MAX_BYTES) {
      setProblem(t('verify.too_large', { name: file.name, size: (file.size / 1024 / 1024).toFixed(1) }));
      return;
    }
    let data: string;
    try {
      data = await readAsDataUrl(file);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : t('verify.could_not_read', { name: file.name }));
      return;
    }
    verify.mutate({ file: data });
  };

  return (
    <AuthLayout title={msg('verify.title')}>
      <p className="lead">{msg('verify.lead')}</p>
      <label
        htmlFor={inputId}
        className={`dropzone${over ? ' dropzone-over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          background(choose(e.dataTransfer.files));
        }}
      >
        <strong>{msg('verify.drop')}</strong>
        <span className="hint">{msg('verify.drop_hint')}</span>
        <input
          id={inputId}
          className="sr-only"
          type="file"
          accept="application/pdf,.pdf"
          onChange={(e) => background(choose(e.target.files))}
          data-testid="verify-file"
        />
      </label>
      {problem ? (
        <div className="notice notice-error" role="alert">
          {problem}
        </div>
      ) : null}
      {verify.error ? (
        <div className="notice notice-error" role="alert">
          <strong>{msg('verify.failed')} </strong>
          {verifyProblem(verify.error)}
        </div>
      ) : null}
      {verify.isPending ? (
        <p className="loading" role="status">
          {msg('verify.checking')}
        </p>
      ) : null}
      {verify.data ? <Result v={verify.data} /> : null}
      {verify.data || verify.error ? (
        <Button type="button" onClick={() => verify.reset()}>
          {msg('verify.again')}
        </Button>
      ) : null}
    </AuthLayout>
  );
}
