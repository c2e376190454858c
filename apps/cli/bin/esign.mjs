#!/usr/bin/env node
// `pnpm esign ...` from the repository root runs this bin (no script header on stdout).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
