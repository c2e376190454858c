/**
 * @esign/domain: the service's vocabulary and the value rules every package shares, defined once.
 * No dependencies and no side effects, so the signing page's browser bundle takes only what it
 * uses. packages/pdf, packages/webhooks, packages/db and packages/core re-export from here under
 * their historical names.
 */
export * from './accounts.ts';
export * from './batches.ts';
export * from './brand-contrast.ts';
export * from './csv.ts';
export * from './email.ts';
export * from './events.ts';
export * from './field-types.ts';
export * from './form-logic/index.ts';
export * from './geometry.ts';
export * from './locale-values.ts';
export * from './money.ts';
export * from './snapping.ts';
export * from './statuses.ts';
export * from './values.ts';
