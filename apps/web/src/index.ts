export { loadWebBuildOrExit } from './built.ts';
export { type WebOptions, webApp } from './plugin.ts';
