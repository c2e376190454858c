import { sessionCookieName } from '@esign/core';
import { createSession } from '@esign/core/testing';
import type { TestAccount } from './accounts.ts';
import type { TestApp } from './app.ts';
import { twoRoleTemplate } from './signing.ts';

// Issue 47 fixtures: a template whose first two roles have no fields (an approver's and a
// viewer's), then the two-role template's Client and Agent; and a dashboard user's session.

/** Roles in order Manager (no fields), Reader (no fields), Client, Agent. */
export async function partsTemplate(t: TestApp, owner: TestAccount) {
  const tpl = await twoRoleTemplate(t, owner);
  const full = await t.api('GET', `templates/${tpl.id}`, { key: owner.key });
  // Spec PATCH: roles rename by position, then `fields` (all of them again) add the roles they name.
  const fields = full.body.fields.map((f: any) => ({
    name: f.name,
    type: f.type,
    role: f.role,
    required: f.required,
    ...(f.options ? { options: f.options } : {}),
    areas: [
      { page: f.type === 'signature' ? 2 : 1, x: 0.1, y: 0.1 + 0.1 * fieldIndex(f.name), w: 0.3, h: 0.05 },
    ],
  }));
  const res = await t.api('PATCH', `templates/${tpl.id}`, {
    key: owner.key,
    body: { roles: ['Manager', 'Reader'], fields },
  });
  if (res.status !== 200) throw new Error(`template: ${res.status} ${res.text}`);
  return res.body as { id: number; roles: string[] };
}

const fieldIndex = (name: string) =>
  ['Client name', 'Agree', 'Plan', 'Start', 'Client signature', 'Agent signature'].indexOf(name) % 6;

/** The four participants of the first scenario, in role order. */
export const fourParts = (tag: string) => [
  { role: 'Manager', kind: 'approver', name: 'Mia Manager', email: `mia-${tag}@example.com` },
  { role: 'Reader', kind: 'viewer', name: 'Rob Reader', email: `rob-${tag}@example.com` },
  { role: 'Client', name: 'Cleo Client', email: `cleo-${tag}@example.com` },
  { role: 'Agent', name: 'Avi Agent', email: `avi-${tag}@example.com` },
];

/** A dashboard session of the account's user: what /trpc needs for a change (cookie, CSRF, Origin). */
export async function dashboardSession(t: TestApp, owner: Pick<TestAccount, 'userId'>) {
  const s = await createSession(t.db, owner.userId, { ip: null, userAgent: null, now: new Date() });
  return {
    token: s.token,
    cookie: `${sessionCookieName(t.config)}=${s.token}`,
    headers: {
      cookie: `${sessionCookieName(t.config)}=${s.token}`,
      'x-csrf-token': s.csrfToken,
      origin: t.baseUrl,
    },
  };
}

/** signers.host over /trpc as the dashboard does; returns the host cookie it set. */
export async function hostSigner(
  t: TestApp,
  session: { headers: Record<string, string> },
  signerId: number,
  userAgent = 'Tablet/1.0 (host device)',
) {
  const res = await fetch(`${t.baseUrl}/trpc/signers.host`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...session.headers },
    body: JSON.stringify({ id: signerId }),
  });
  const body = (await res.json()) as { result?: { data: any }; error?: { data: { code: string } } };
  const hostCookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.includes('esign_host_'));
  return { status: res.status, data: body.result?.data, code: body.error?.data.code, hostCookie };
}
