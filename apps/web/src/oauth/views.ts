// Server-rendered HTML of the OAuth consent page and the authorization server's error page. No
// script: plain forms that post back to this origin.

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.5rem;margin-bottom:.25rem}.card{border:1px solid #d0d7de;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#59636e}dd{margin:0;word-break:break-all}
.muted{color:#59636e}.error{background:#ffebe9;border:1px solid #ff8182;padding:.75rem;border-radius:6px}
.choices{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1b1f24;border-color:#d0d7de}button.link{background:none;border:none;color:#0969da;padding:.5rem 0}
ul{padding-left:1.2rem}`;

function oauthLayout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><link rel="icon" href="data:,">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface ConsentModel {
  action: string;
  csrfToken: string;
  clientName: string;
  clientId: string;
  /** Whether the client is known by a metadata document at its id (an https URL). */
  clientIdIsUrl: boolean;
  redirectUri: string;
  userEmail: string;
  environment: 'live' | 'test';
  viewer: boolean;
}

/** The consent page: who asks, where the answer goes, and Full access / View only / Cancel. */
export function consentPage(m: ConsentModel): string {
  const side = m.environment === 'test' ? ' (test data)' : '';
  return oauthLayout(
    `Connect ${m.clientName}`,
    `<h1>Connect ${esc(m.clientName)}?</h1>
<p class="muted">${esc(m.clientName)} wants to use your e-signature account through the MCP server.</p>
<div class="card"><dl>
<dt>App</dt><dd>${esc(m.clientName)}</dd>
<dt>App id</dt><dd>${esc(m.clientId)}${m.clientIdIsUrl ? ' <span class="muted">(published by that site)</span>' : ''}</dd>
<dt>Will return to</dt><dd><strong>${esc(m.redirectUri)}</strong></dd>
<dt>Signed in as</dt><dd>${esc(m.userEmail)}${esc(side)}</dd>
</dl></div>
<ul>
<li><strong>Full access</strong>: read, create and send templates and signature requests, remind, cancel, spend credits.</li>
<li><strong>View only</strong>: read templates, requests and your account; verify documents; send feedback.</li>
</ul>
${m.viewer ? '<p class="muted">Your role is viewer: the app can only read, whichever you choose.</p>' : ''}
<form method="post" action="${esc(m.action)}">
<input type="hidden" name="csrf_token" value="${esc(m.csrfToken)}">
<div class="choices">
<button type="submit" name="access" value="full">Full access</button>
<button type="submit" name="access" value="read" class="secondary">View only</button>
<button type="submit" name="access" value="deny" class="link">Cancel</button>
</div></form>
<p class="muted">You can disconnect the app at any time from the dashboard (Connected apps).</p>`,
  );
}

export function oauthErrorPage(error: string, description: string): string {
  return oauthLayout(
    'Sign-in could not continue',
    `<h1>This sign-in could not continue</h1>
<p class="error" role="alert"><strong>${esc(error)}</strong>${description ? `: ${esc(description)}` : ''}</p>
<p class="muted">Go back to the app and connect again.</p>`,
  );
}
