import type { SigningAssets } from './assets.ts';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The server-rendered page at /s/{token}: landmarks, a loading message, a live region the client
 * announces through, and a <noscript> explanation. The client script fills in the rest.
 */
export function renderSigningShell(assets: SigningAssets, opts: { embedOrigins?: string[] } = {}): string {
  const embed = opts.embedOrigins?.length ? ` data-embed-origins="${esc(opts.embedOrigins.join(' '))}"` : '';
  return `<!doctype html>
<html lang="en"${embed}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex,nofollow">
<link rel="icon" href="data:,">
<title>Sign document</title>
<link rel="stylesheet" href="${esc(assets.css.path)}">
<script defer src="${esc(assets.js.path)}"></script>
</head>
<body>
<div id="app">
<main id="main" class="status-page">
<div class="card">
<h1>Sign document</h1>
<p class="loading" role="status">Loading the document…</p>
<noscript><p>This signing page needs JavaScript to show the document and record your signature. Turn on JavaScript in your browser, or open this link in another browser. If you cannot, contact the person who sent you the document.</p></noscript>
</div>
</main>
</div>
<div id="live" class="sr-only" role="status" aria-live="polite" aria-atomic="true"></div>
</body>
</html>
`;
}
