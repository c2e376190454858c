import { layout } from '../billing/views.ts';

// Server-rendered HTML of a template's public signing link (/l/{token}): plain forms posting back
// to this origin, no script, readable on a phone and with a screen reader.

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const alert = (error: string | null) =>
  error ? `<p class="error" role="alert" id="form-error">${esc(error)}</p>` : '';
const described = (error: string | null) => (error ? ' aria-describedby="form-error"' : '');

export interface LinkFormModel {
  title: string;
  error: string | null;
  name?: string;
  email?: string;
}

/** Step 1: who is signing. */
export function detailsPage(m: LinkFormModel): string {
  return layout(
    `Sign ${m.title}`,
    `<h1>${esc(m.title)}</h1>
<p>Enter your name and email address. We email you a code to confirm the address, then you can read and sign the document.</p>
${alert(m.error)}
<form method="post" class="card" novalidate>
<label for="name">Full name</label>
<input id="name" name="name" autocomplete="name" required maxlength="200" value="${esc(m.name)}"${described(m.error)}>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" required maxlength="254" value="${esc(m.email)}"${described(m.error)}>
<p><button type="submit">Email me a code</button></p>
</form>`,
  );
}

/** Step 2: the emailed code. */
export function codePage(m: LinkFormModel & { visit: string; action: string }): string {
  return layout(
    `Confirm your email – ${m.title}`,
    `<h1>${esc(m.title)}</h1>
<p role="status">We sent a six-digit code to <strong>${esc(m.email)}</strong>. It works for 10 minutes.</p>
${alert(m.error)}
<form method="post" action="${esc(m.action)}" class="card" novalidate>
<input type="hidden" name="visit" value="${esc(m.visit)}">
<input type="hidden" name="name" value="${esc(m.name)}">
<input type="hidden" name="email" value="${esc(m.email)}">
<label for="code">Code from the email</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="12" required${described(m.error)}>
<p><button type="submit">Confirm and open the document</button></p>
</form>`,
  );
}

/** A link that cannot be used: turned off, full, or unknown. */
export function closedPage(title: string, message: string): string {
  return layout(title, `<h1>${esc(title)}</h1><p class="card" role="status">${esc(message)}</p>`);
}
