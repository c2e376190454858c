import type { Migration } from 'kysely/migration';
import * as m0001 from './2026_11_22_0001_initial.ts';

// Listed explicitly, in order. Migrations are frozen once released.
export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_initial': m0001,
};
