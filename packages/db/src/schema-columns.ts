import type { ColumnType } from 'kysely';

// Column kinds every table file uses (schema.ts, schema-send-sources.ts).

/** Timestamps come back as Date; accept Date or ISO strings on write. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: read as T, written as a JSON string (see `json()`), because pg turns JS arrays into SQL arrays. */
export type Json<T> = ColumnType<T, string, string>;
export type JsonDefault<T> = ColumnType<T, string | undefined, string>;

export type Environment = 'live' | 'test';
export type Permission = 'full' | 'read';
