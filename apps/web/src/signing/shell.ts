import { direction, type Locale, t } from '@esign/i18n';
import type { SigningAssets } from './assets.ts';

/** esbuild's name for code two entry points share (build-signing.ts). */
const SHARED_CHUNK = /\/signing-chunk-[A-Z0-9]{8}\.js$/;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The server-rendered page at /s/{token}: landmarks, a loading message, a live region the client
 * announces through, and a <noscript> explanation. The client script fills in the rest.
 */
export function renderSigningShell(
  assets: SigningAssets,
  opts: { embedOrigins?: string[]; locale?: Locale } = {},
): string {
  const embed = opts.embedOrigins?.length ? ` data-embed-origins="${esc(opts.embedOrigins.join(' '))}"` : '';
  // The signer's language (signingPageLocale), the browser's for a link that names no signer.
  const locale = opts.locale ?? 'en';
  const tr = (key: Parameters<typeof t>[1]) => esc(t(locale, key));
  // That language's catalogue is fetched beside the script: the page shows no English in its
  // place while it loads.
  const chunk = assets.locales[locale];
  // Issue 46: code the script shares with a chunk it loads on demand (the form engine) is a chunk
  // the script imports at once: fetched beside it too.
  const shared = assets.chunks.filter((c) => SHARED_CHUNK.test(c.path)).map((c) => c.path);
  const preload = [...(chunk ? [chunk] : []), ...shared]
    .map((path) => `\n<link rel="modulepreload" href="${esc(path)}">`)
    .join('');
  return `<!doctype html>
<html lang="${locale}" dir="${direction(locale)}"${embed}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex,nofollow">
<link rel="icon" href="data:,">
<title>${tr('page.title')}</title>
<link rel="stylesheet" href="${esc(assets.css.path)}">
<script type="module" src="${esc(assets.js.path)}"></script>${preload}
</head>
<body>
<div id="app">
<main id="main" class="status-page">
<div class="card">
<h1>${tr('page.title')}</h1>
<p class="loading" role="status">${tr('page.loading')}</p>
<noscript><p>${tr('page.noscript')}</p></noscript>
</div>
</main>
</div>
<div id="live" class="sr-only" role="status" aria-live="polite" aria-atomic="true"></div>
</body>
</html>
`;
}
