/** What test/no-bundlers-hook.ts prints when a process resolves a bundler (issue 28). */
export const BUNDLER_LOADED = 'BUNDLER LOADED AT RUN TIME';
