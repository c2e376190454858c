import type { TestAccount } from './accounts.ts';
import type { TestApp } from './app.ts';
import { b64, plainPdf } from './pdfs.ts';

export const PNG_DOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A two-role template: Client (signature, name text, agree checkbox, plan select), Agent (signature). */
export async function twoRoleTemplate(t: TestApp, owner: TestAccount, extra: Record<string, unknown> = {}) {
  const area = (page = 1, y = 0.1) => [{ page, x: 0.1, y, w: 0.3, h: 0.05 }];
  const res = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Service Agreement',
      documents: [{ file: b64(await plainPdf(2)) }],
      fields: [
        { name: 'Client signature', type: 'signature', role: 'Client', areas: area(2, 0.8) },
        { name: 'Client name', type: 'text', role: 'Client', areas: area(1, 0.2) },
        { name: 'Agree', type: 'checkbox', role: 'Client', required: false, areas: area(1, 0.3) },
        {
          name: 'Plan',
          type: 'select',
          role: 'Client',
          required: false,
          options: ['Basic', 'Pro'],
          areas: area(1, 0.4),
        },
        { name: 'Start', type: 'date', role: 'Client', required: false, areas: area(1, 0.5) },
        { name: 'Agent signature', type: 'signature', role: 'Agent', areas: area(2, 0.9) },
      ],
      ...extra,
    },
  });
  if (res.status !== 201) throw new Error(`template: ${res.status} ${res.text}`);
  return res.body;
}

export async function sendRequest(
  t: TestApp,
  owner: TestAccount,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return t.api('POST', 'signature_requests', { key: owner.key, body, headers });
}

export const tokenOf = (signingUrl: string) => signingUrl.split('/s/')[1]!;

/** Calls a signing procedure over /trpc as any client may: queries by GET (the signing page uses POST). */
export async function trpc(
  t: TestApp,
  proc: string,
  input: Record<string, unknown>,
  kind: 'query' | 'mutation' = 'mutation',
  extraHeaders: Record<string, string> = {},
) {
  const url = `${t.baseUrl}/trpc/signing.${proc}`;
  const headers = { 'user-agent': 'vitest-signer', ...extraHeaders };
  const res =
    kind === 'query'
      ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
      : await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(input),
        });
  const body = (await res.json()) as {
    result?: { data: any };
    error?: { message: string; data: { code: string } };
  };
  return {
    status: res.status,
    setCookies: res.headers.getSetCookie(),
    data: body.result?.data,
    error: body.error ? { code: body.error.data.code, message: body.error.message } : null,
  };
}
