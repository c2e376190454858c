import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { background } from '../background.ts';
import type { Outputs } from '../router-types.ts';
import { trpc } from '../trpc.ts';
import { Badge, Button, ErrorNote } from '../ui.tsx';
import { AuthLayout } from './auth/layout.tsx';

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
    reader.onerror = () => reject(new Error(`Could not read ${file.name}`));
    reader.readAsDataURL(file);
  });

const HEADLINE: Record<Verification['verdict'], { tone: string; title: string }> = {
  authentic: { tone: 'good', title: 'Authentic: sealed by this service and unchanged' },
  intact_signature: { tone: 'warn', title: 'Signatures intact, but not a file this service sealed' },
  modified: { tone: 'bad', title: 'Changed after it was signed' },
  unsigned: { tone: 'muted', title: 'Not signed' },
};

const LEVEL_WORDS: Record<string, string> = {
  'B-B': 'PAdES B-B: a basic electronic seal; the time is the one the service wrote',
  'B-T': 'PAdES B-T: sealed, with a trusted timestamp',
  'B-LT': 'PAdES B-LT: timestamped, with the certificate checks kept in the file',
  'B-LTA': 'PAdES B-LTA: timestamped, certificate checks kept in the file, and an archive timestamp',
};

/** As the audit trail writes times: 2026-11-27 20:25 UTC (the same in every reader's locale). */
const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : null);

/** A certificate subject's common name ("CN=esign document sealing, O=..." → "esign document sealing"). */
const commonName = (subject: string | null) => subject?.match(/CN=([^,]+)/)?.[1]?.trim() ?? subject;

function whatItIs(v: Verification): string | null {
  const m = v.match;
  if (!m) return null;
  const test = m.test_mode ? ' (made in test mode: not legally binding)' : '';
  switch (m.kind) {
    case 'document':
      return `The sealed document “${m.name}”${test}.`;
    case 'audit_trail':
      return `The audit trail of “${m.name.replace(/ - audit trail$/, '')}”${test}.`;
    case 'combined':
      return `The combined file (every document and the audit trail) “${m.name}”${test}.`;
    case 'signer_copy':
      return `Signer ${m.signer_number}'s own signed copy of “${m.name}”, made when they signed${test}. ${
        m.final_document_exists
          ? 'A later final document, sealed once everyone had signed, exists: ask for that one.'
          : 'The final document, with every signature, did not exist yet.'
      }`;
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
      : pages.length === 1
        ? `Page ${pages[0]}`
        : `Pages ${pages.slice(0, -1).join(', ')} and ${pages.at(-1)}`;
  const elsewhere = changes.some((c) => c.page === null)
    ? 'the file itself (its structure, form or signatures)'
    : null;
  if (listed && elsewhere) return `${listed}, and ${elsewhere}`;
  return listed ?? `${elsewhere![0]!.toUpperCase()}${elsewhere!.slice(1)}`;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
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
      <h2 id="verdict" className={`verify-verdict verify-${head.tone}`} aria-live="polite">
        <Badge tone={head.tone}>{v.verdict.replace('_', ' ')}</Badge> {head.title}
      </h2>
      <p>{v.summary}</p>
      <dl className="verify-facts">
        {what ? <Fact label="What it is">{what}</Fact> : null}
        {changedWhere(v.changes) ? (
          <Fact label="Changed">
            <span data-testid="verify-changed-where">{changedWhere(v.changes)}</span>
          </Fact>
        ) : null}
        {seal ? (
          <Fact label="Sealed by">
            {commonName(seal.signer_subject) ?? 'an unknown signer'}
            {seal.certificate_is_service ? " (this service's sealing certificate)" : ''}
          </Fact>
        ) : null}
        {sealedAt ? (
          <Fact label="When">
            {sealedAt}
            {seal?.timestamp_time ? ', certified by a timestamp authority' : ', as the file states it'}
          </Fact>
        ) : null}
        {v.level ? <Fact label="Level">{LEVEL_WORDS[v.level] ?? v.level}</Fact> : null}
        <Fact label="SHA-256">
          <code className="verify-hash">{v.sha256}</code>
        </Fact>
      </dl>
      {v.changes.length > 0 ? (
        <>
          <h3>What changed after signing</h3>
          <ul data-testid="verify-changes">
            {v.changes.map((c) => (
              <li key={`${c.revision}-${c.kind}-${c.page}-${c.description}`}>
                {c.page && !c.description.includes(`page ${c.page}`) ? `Page ${c.page}: ` : ''}
                {c.description} (revision {c.revision})
              </li>
            ))}
          </ul>
        </>
      ) : null}
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
      setProblem(
        `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; files up to 25 MB can be checked.`,
      );
      return;
    }
    let data: string;
    try {
      data = await readAsDataUrl(file);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : `Could not read ${file.name}`);
      return;
    }
    verify.mutate({ file: data });
  };

  return (
    <AuthLayout title="Verify a signed document">
      <p className="lead">
        Drop a PDF you received: we check whether this service sealed it and whether anything changed since.
        The file is checked and forgotten: it is not stored.
      </p>
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
        <strong>Drop a PDF here</strong>
        <span className="hint">or press to choose one (up to 25 MB)</span>
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
      <ErrorNote error={verify.error} title="This file could not be checked." />
      {verify.isPending ? (
        <p className="loading" role="status">
          Checking the signatures…
        </p>
      ) : null}
      {verify.data ? <Result v={verify.data} /> : null}
      {verify.data || verify.error ? (
        <Button type="button" onClick={() => verify.reset()}>
          Check another file
        </Button>
      ) : null}
    </AuthLayout>
  );
}
