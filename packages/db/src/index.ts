export * from './connection.ts';
export * from './embedded.ts';
export * from './migrate.ts';
export * from './open.ts';
export * from './schema.ts';
export * from './schema-recipients.ts';
export * from './schema-send-sources.ts';
export * from './scope.ts';
