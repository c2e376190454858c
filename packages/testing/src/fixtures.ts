import { updateUser } from '@esign/core/operator';
import type { TestAccount } from './accounts.ts';
import type { TestApp } from './app.ts';
import { makePack } from './billing.ts';
import { b64, plainPdf, signatureField } from './pdfs.ts';

/**
 * For every REST path parameter, how to make a resource owned by an account: the shared route
 * table uses it to prove another account's resource is a 404. A route whose parameter has no
 * factory here fails the contract test, so new endpoints cannot skip the common rules.
 */
export type ResourceFactory = (t: TestApp, owner: TestAccount) => Promise<string>;

export async function makeTemplate(
  t: TestApp,
  owner: TestAccount,
  body: Record<string, unknown> = {},
): Promise<any> {
  const res = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Contract',
      documents: [{ file: b64(await plainPdf(2)) }],
      fields: [signatureField()],
      ...body,
    },
  });
  if (res.status !== 201) throw new Error(`template fixture failed: ${res.status} ${res.text}`);
  return res.body;
}

export const resourceFactories: Record<string, ResourceFactory> = {
  '/templates/{id}:id': async (t, owner) => String((await makeTemplate(t, owner)).id),
  '/signature_requests/{id}:id': async (t, owner) => String((await makeRequest(t, owner)).id),
  '/signers/{id}:id': async (t, owner) => String((await makeRequest(t, owner)).signers[0].id),
  '/checkouts/{id}:id': async (t, owner) => (await makeCheckout(t, owner)).id,
  '/templates/{id}/signing_link:id': async (t, owner) => String((await makeTemplate(t, owner)).id),
  '/bulk_sends/{id}:id': async (t, owner) => String((await makeBulkSend(t, owner)).id),
  '/bulk_sends/{id}/rows:id': async (t, owner) => String((await makeBulkSend(t, owner)).id),
  '/bulk_sends/{id}/resume:id': async (t, owner) => String((await makeBulkSend(t, owner)).id),
  '/brands/{id}:id': async (t, owner) => String((await makeBrand(t, owner)).id),
};

/** A brand of the owner's account (issue 44, docs/branding.md). */
export async function makeBrand(t: TestApp, owner: TestAccount): Promise<any> {
  const res = await t.api('POST', 'brands', { key: owner.key, body: { name: 'Fixture brand' } });
  if (res.status !== 201) throw new Error(`brand fixture failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A one-row bulk send of a fresh template (docs/sending.md). */
export async function makeBulkSend(t: TestApp, owner: TestAccount): Promise<any> {
  const res = await t.api('POST', 'bulk_sends', { key: owner.key, body: await bulkBody(t, owner) });
  if (res.status !== 201) throw new Error(`bulk send fixture failed: ${res.status} ${res.text}`);
  return res.body;
}

async function bulkBody(t: TestApp, owner: TestAccount) {
  return {
    template_id: (await makeTemplate(t, owner)).id,
    file_name: 'people.csv',
    file: Buffer.from('Name,Email\r\nAnn,ann@example.com\r\n').toString('base64'),
  };
}

/** A pending checkout started by the owner (who gets a billing country first). */
export async function makeCheckout(t: TestApp, owner: TestAccount): Promise<any> {
  await updateUser(t.db, owner.email, { billingCountry: 'US', now: new Date() });
  const pack = await makePack(t.db);
  const res = await t.api('POST', 'checkouts', { key: owner.key, body: { credit_pack_id: pack.id } });
  if (res.status !== 201) throw new Error(`checkout fixture failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function makeRequest(t: TestApp, owner: TestAccount): Promise<any> {
  const tpl = await makeTemplate(t, owner);
  const res = await t.api('POST', 'signature_requests', {
    key: owner.key,
    body: { template_id: tpl.id, signers: [{ email: 'fixture@example.com' }] },
  });
  if (res.status !== 201) throw new Error(`request fixture failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A valid body for write routes, so that the rules run against a request that would otherwise work. */
export const sampleBodies: Record<string, (t: TestApp, owner: TestAccount) => Promise<unknown>> = {
  'POST /templates': async () => ({
    documents: [{ file: b64(await plainPdf(1)) }],
    fields: [signatureField()],
  }),
  'PATCH /templates/{id}': async () => ({ name: 'Renamed' }),
  'POST /feedback': async () => ({ kind: 'feedback', message: 'hello' }),
  'POST /documents/verify': async () => ({ file: b64(await plainPdf(1)) }),
  'POST /signature_requests': async (t, owner) => ({
    template_id: (await makeTemplate(t, owner)).id,
    signers: [{ email: 's@example.com' }],
  }),
  'PATCH /signers/{id}': async () => ({ name: 'New name' }),
  'POST /checkouts': async (t) => ({ credit_pack_id: (await makePack(t.db)).id }),
  'PATCH /templates/{id}/signing_link': async () => ({ enabled: false }),
  'POST /bulk_sends': bulkBody,
  'POST /bulk_sends/preview': bulkBody,
  'POST /brands': async () => ({ name: 'Sample brand' }),
  'PATCH /brands/{id}': async () => ({ name: 'Renamed brand' }),
};
