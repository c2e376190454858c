export * from './access-tokens.ts';
export * from './client-documents.ts';
export * from './clients.ts';
export * from './connections.ts';
export * from './rules.ts';
export * from './store.ts';
