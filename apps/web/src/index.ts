export { type WebOptions, webApp } from './plugin.ts';
