import { type RawBuilder, sql } from 'kysely';

/** The `created_by` of a template or signature request (JSON built in SQL): the user who made it. */
export interface CreatedByRow {
  id: number;
  email: string;
  name: string | null;
}

/**
 * `created_by` as a column of the query that reads the resource (`users` read in the same
 * statement, so a page of rows costs no query per row): the user behind `userId` (a column
 * reference such as `templates.created_by_user_id`, or a value), null when an API key made it.
 */
export function createdByColumn(userId: RawBuilder<unknown>): RawBuilder<CreatedByRow | null> {
  return sql<CreatedByRow | null>`(select json_build_object('id', u.id, 'email', u.email, 'name', u.name) from users u where u.id = ${userId})`;
}
