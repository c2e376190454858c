export * from './ingest/index.ts';
export * from './seal/index.ts';
