export * from './conditions.ts';
export * from './definitions.ts';
export * from './form-state.ts';
export * from './formula.ts';
export * from './types.ts';
export * from './validation.ts';
