import type { Config } from '@esign/core';

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The landing page of a fresh install: where the API, its reference and the MCP endpoint are. */
export function renderHome(config: Config): string {
  const url = esc(config.PUBLIC_URL);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>E-Signature Service</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}</style></head>
<body><main><h1>E-Signature Service</h1>
<p>This server is running. Integrate through:</p>
<ul>
<li>REST API: <code>${url}/api/v1</code> — <a href="/api/docs">reference</a>, <a href="/api/v1/openapi.json">OpenAPI document</a></li>
<li>MCP endpoint (Streamable HTTP): <code>${url}/mcp</code></li>
</ul>
<p>Create an account and an API key with the operator command line: <code>pnpm esign account create --email you@example.com</code>, then <code>pnpm esign key create --email you@example.com</code>.</p>
</main></body></html>`;
}
