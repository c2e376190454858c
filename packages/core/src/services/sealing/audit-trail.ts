import type { SignerRow } from '@esign/db';
import type { AuditEventRow } from '@esign/db/queries/audit';
import type { Translate } from '@esign/i18n';

// How the audit trail describes each recorded event.

/**
 * The signer who acted, as they were when the entry was written (`signer_who`: a hand-over
 * changes the row afterwards, issue 42), else the row as it is; with the address, so two people
 * of one name stay apart.
 */
function signerLabel(e: AuditEventRow, s: SignerRow | undefined, tr: Translate): string {
  const who = e.signer_who ?? s;
  if (!who) return tr('audit.by', { actor: 'signer' });
  return personLabel(who) ?? tr('audit.signer', { id: e.signer_id });
}

type Person = Pick<SignerRow, 'name' | 'email' | 'phone'>;

const isPerson = (x: unknown): x is Person =>
  !!x && typeof x === 'object' && !Array.isArray(x) && ('name' in x || 'email' in x || 'phone' in x);

/** "Carla Kim <carla@example.com>", or the name, email or phone alone. */
function personLabel(p: Partial<Person>): string | null {
  const address = p.email ?? p.phone ?? null;
  if (p.name && address) return `${p.name} <${address}>`;
  return p.name ?? address;
}

const isHashedFile = (x: unknown): x is { name: string; sha256: string } =>
  !!x &&
  typeof x === 'object' &&
  typeof (x as { name?: unknown }).name === 'string' &&
  typeof (x as { sha256?: unknown }).sha256 === 'string';

function dataSummary(data: Record<string, unknown>): string {
  const parts: string[] = [];
  // jsonb keeps keys shortest first: a hand-over reads from, then to.
  const entries = Object.entries(data ?? {}).sort(([a], [b]) => Number(b === 'from') - Number(a === 'from'));
  for (const [k, v] of entries) {
    if (v === null || v === undefined) continue;
    let text: string;
    if (typeof v === 'string') text = v.startsWith('data:') ? '[image]' : v;
    else if (typeof v === 'number' || typeof v === 'boolean') text = String(v);
    else if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) text = v.join(', ');
    // A person an entry names (signer.delegated's `from` and `to`).
    else if (isPerson(v)) text = personLabel(v) ?? '—';
    else if (Array.isArray(v) && v.every(isHashedFile)) {
      // The files an entry produced (signer.copy_sealed, signature_request.sealed), each with its
      // SHA-256 in full: what POST /documents/verify and the /verify page match a file by.
      parts.push(`${k}: ${v.map((f) => `${f.name} (SHA-256 ${f.sha256})`).join(', ')}`);
      continue;
    } else continue;
    parts.push(`${k}: ${text.length > 200 ? `${text.slice(0, 199)}…` : text}`);
  }
  return parts.join('; ');
}

/**
 * Who did it, from where, and the entry's data, in the trail's language (the data's keys and
 * values are the recorded ones, as the API's timeline shows them).
 */
export function eventDetail(e: AuditEventRow, o: { signers: Map<number, SignerRow>; tr: Translate }): string {
  const { tr } = o;
  const who = e.signer_id
    ? signerLabel(e, o.signers.get(e.signer_id), tr)
    : e.api_key_id
      ? tr('audit.api_key', { id: e.api_key_id })
      : tr('audit.by', { actor: e.actor_type });
  return [who, e.ip ? `IP ${e.ip}` : null, e.user_agent, dataSummary(e.data)].filter(Boolean).join(' · ');
}
