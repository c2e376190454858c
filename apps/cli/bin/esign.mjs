#!/usr/bin/env node
// `pnpm esign ...` from the repository root runs this bin (no script header on stdout). Node runs
// the TypeScript sources itself (type stripping): no compiler is loaded at run time.
await import('../src/main.ts');
