export * from './brands.ts';
