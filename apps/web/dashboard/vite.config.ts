import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard (README: `/`): built into apps/web/dist/dashboard by `pnpm build` (turbo run build,
// apps/web/scripts/build.ts), or served by `pnpm --filter @esign/web dashboard:dev` with changes
// applied instantly (run the server with PUBLIC_URL=http://localhost:5173).
const pdfFieldTypes = fileURLToPath(new URL('../../../packages/pdf/src/ingest/types.ts', import.meta.url));
const api = 'http://localhost:3000';

export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Built assets live under /app/ on the server; the dev server serves everything from /.
  base: command === 'build' ? '/app/' : '/',
  plugins: [react()],
  // The forms reuse core's zod input schemas; their only non-zod import is the field-type list.
  resolve: { alias: { '@esign/pdf': pdfFieldTypes } },
  build: {
    target: ['chrome110', 'edge110', 'firefox115', 'safari16'],
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/trpc', '/files', '/s', '/api', '/mcp'].map((p) => [p, api])),
  },
}));
