export { loadWebBuildOrExit } from './built.ts';
export type { WebOptions } from './options.ts';
export { webApp } from './plugin.ts';
