import { type Insertable, sql, type Updateable } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
import type { Database, TemplateRow } from '../schema.ts';
import type { LinkVisitRow, TemplateLinkRow } from '../schema-send-sources.ts';

// A template's public signing link (template_links) and its visits (link_visits).

/** The link whose token hashes to `tokenHash` (locked `FOR UPDATE` with `lock`), or undefined. */
export async function findLinkByTokenHash(
  db: Executor,
  tokenHash: string,
  o: { lock: boolean },
): Promise<TemplateLinkRow | undefined> {
  let q = db.selectFrom('template_links').selectAll().where('token_hash', '=', tokenHash);
  if (o.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The template of a link (already scoped by its link). */
export async function findLinkTemplate(db: Executor, templateId: number): Promise<TemplateRow> {
  return db.selectFrom('templates').selectAll().where('id', '=', templateId).executeTakeFirstOrThrow();
}

/** The template's link, if it was ever set up. */
export async function findTemplateLink(
  db: Executor,
  templateId: number,
): Promise<TemplateLinkRow | undefined> {
  return db.selectFrom('template_links').selectAll().where('template_id', '=', templateId).executeTakeFirst();
}

export type TemplateLinkInsert = Insertable<Database['template_links']>;
export type TemplateLinkUpdate = Updateable<Database['template_links']>;

/** Writes the template's link, or changes it when it exists. */
export async function upsertTemplateLink(
  tx: Tx,
  o: { insert: TemplateLinkInsert; update: TemplateLinkUpdate },
): Promise<TemplateLinkRow> {
  return tx
    .insertInto('template_links')
    .values(o.insert)
    .onConflict((oc) => oc.column('template_id').doUpdateSet(o.update))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Counts one more use of the template's link unless it is off or its cap is reached, in one
 * statement (the row stays locked until the transaction ends, so uses never pass the cap).
 * Returns the link as it is now, or undefined when no use was left.
 */
export async function takeLinkUse(tx: Tx, templateId: number): Promise<TemplateLinkRow | undefined> {
  return tx
    .updateTable('template_links')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('template_id', '=', templateId)
    .where('enabled', '=', true)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .returningAll()
    .executeTakeFirst();
}

export type LinkVisitInsert = Insertable<Database['link_visits']>;

/** Writes a visit; returns its id. */
export async function insertLinkVisit(tx: Tx, row: LinkVisitInsert): Promise<number> {
  const inserted = await tx.insertInto('link_visits').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function setLinkVisitCode(tx: Tx, visitId: number, codeHash: string): Promise<void> {
  await tx.updateTable('link_visits').set({ code_hash: codeHash }).where('id', '=', visitId).execute();
}

/** The visit locked until the transaction ends. */
export async function lockLinkVisit(tx: Tx, visitId: number): Promise<LinkVisitRow | undefined> {
  return tx.selectFrom('link_visits').selectAll().where('id', '=', visitId).forUpdate().executeTakeFirst();
}

export async function setLinkVisitAttempts(tx: Tx, visitId: number, attempts: number): Promise<void> {
  await tx.updateTable('link_visits').set({ attempts }).where('id', '=', visitId).execute();
}

/**
 * Marks the visit used by `requestId`, unless it was already used: one statement. Returns whether
 * this call used it.
 */
export async function useLinkVisit(
  tx: Tx,
  visitId: number,
  o: { requestId: number; now: Date },
): Promise<boolean> {
  const used = await tx
    .updateTable('link_visits')
    .set({ used_at: o.now, signature_request_id: o.requestId })
    .where('id', '=', visitId)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return used !== undefined;
}

export type VisitWindow = 'email' | 'ip' | 'template';

/** Codes asked for since `since`: by this email (any case), from this IP, or for this template. */
export async function countLinkVisitsSince(
  tx: Tx,
  o: { window: VisitWindow; since: Date; email: string; ip: string | null; templateId: number },
): Promise<{ n: number; first: Date | null }> {
  let q = tx
    .selectFrom('link_visits')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('first')])
    .where('created_at', '>', o.since);
  if (o.window === 'email') q = q.where(sql`lower(email)`, '=', o.email.toLowerCase());
  if (o.window === 'ip') q = q.where('ip', '=', o.ip);
  if (o.window === 'template') q = q.where('template_id', '=', o.templateId);
  const row = await q.executeTakeFirstOrThrow();
  return { n: Number(row.n), first: row.first === null ? null : new Date(row.first) };
}
