export * from './activity.ts';
export * from './api-keys.ts';
export * from './documents.ts';
export * from './webhooks.ts';
