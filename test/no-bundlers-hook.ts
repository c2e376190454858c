// Loaded with `--import` (NODE_OPTIONS, so child processes load it too) by the test that checks a
// server never bundles at run time (issue 28): resolving Vite, Rollup, Rolldown or esbuild prints a
// marker and fails, so a process that bundles at start or on a request cannot serve the page.
import { registerHooks } from 'node:module';
import { BUNDLER_LOADED } from './no-bundlers.ts';

const BARE = /^(vite|esbuild|rollup|rolldown)(\/|$)|^@(vitejs|rollup|rolldown|esbuild)\//;
const RESOLVED = /\/node_modules\/(vite|esbuild|rollup|rolldown|@vitejs|@rollup|@rolldown|@esbuild)\//;

registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    if (BARE.test(specifier) || RESOLVED.test(result.url)) {
      process.stderr.write(`${BUNDLER_LOADED}: ${specifier} (${result.url})\n`);
      throw new Error(`${BUNDLER_LOADED}: ${specifier}`);
    }
    return result;
  },
});
