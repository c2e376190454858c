import type { Executor } from '@esign/db';

/** The `created_by` of a template or signature request: the dashboard user who made it, if any. */
export interface CreatedByDto {
  id: number;
  email: string;
  name: string | null;
}

/** The user behind `created_by_user_id`; null when an API key made the resource. */
export async function loadCreatedBy(db: Executor, userId: number | null): Promise<CreatedByDto | null> {
  if (!userId) return null;
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user ? { id: user.id, email: user.email, name: user.name } : null;
}
