export * from './activity.ts';
export * from './api-keys.ts';
export * from './webhooks.ts';
export * from './documents.ts';
