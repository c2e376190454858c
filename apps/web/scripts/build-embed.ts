import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = fileURLToPath(import.meta.resolve('@esign/embed/script'));

/**
 * Bundles `<esign-form>` (packages/embed) into the classic script integrators load with
 * `<script src=".../embed/esign-form.js">`: an IIFE, so none of its names reach the host page's
 * global scope, and `document.currentScript` (the service's origin) is there when it runs.
 */
export async function buildEmbed(file: string): Promise<void> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome100', 'edge100', 'firefox100', 'safari15.4'],
    write: false,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, result.outputFiles[0]!.contents);
}
