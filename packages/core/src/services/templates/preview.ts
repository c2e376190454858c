import { negotiate } from '@esign/i18n';
import type { Config } from '../../config.ts';
import type { Scope } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { signingPages } from '../file-links.ts';
import { pageRuns } from '../request-model.ts';
import { hmac, safeEqual } from '../secret.ts';
import type { ServiceContext } from '../service-context.ts';
import { consentText } from '../signing/consent.ts';
import { loadTemplateDocuments, loadTemplateFields, requireTemplate } from './queries.ts';

// The editor's preview (issue 12): the signing page as one role of the template would see it, with
// no signature request made and no credit used. The editor gets a short-lived link /s/<token>
// whose token is signed (HMAC), not stored: it names the template, its account side and the role.
// signing.open answers it with `preview: true` from the template as saved; every other signing
// procedure refuses it (it is no signer's token), so nothing a person enters there is kept.

const PREFIX = 'pv_';
const PURPOSE = 'template-preview';
const PREVIEW_TTL_SECONDS = 15 * 60;

interface PreviewClaims {
  /** template id */
  t: number;
  /** account id and environment */
  a: number;
  v: Scope['environment'];
  /** role */
  r: string;
  /** expiry, unix seconds */
  e: number;
}

export const isPreviewToken = (token: string) => token.startsWith(PREFIX);

function signClaims(config: Config, claims: PreviewClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const sig = hmac(config, PURPOSE, payload).subarray(0, 24).toString('base64url');
  return `${PREFIX}${payload}.${sig}`;
}

function readClaims(config: Config, token: string, now: Date): PreviewClaims {
  const [payload, sig] = token.slice(PREFIX.length).split('.');
  const invalid = new CoreError('not_found', 'This preview link is not valid');
  if (
    !payload ||
    !sig ||
    !safeEqual(Buffer.from(sig, 'base64url'), hmac(config, PURPOSE, payload).subarray(0, 24))
  )
    throw invalid;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PreviewClaims;
  if (claims.e * 1000 < now.getTime())
    throw new CoreError('not_found', 'This preview link has expired; open the preview from the editor again');
  return claims;
}

/** templates.preview: a link to the signing page as `role` sees this template; valid 15 minutes. */
export async function issueTemplatePreview(
  sc: ServiceContext,
  scope: Scope,
  input: { id: number; role: string },
) {
  const { id, role } = input;
  const template = await requireTemplate(sc.db, scope, id);
  if (!template.roles.includes(role))
    throw new CoreError('invalid_parameter', `role "${role}" is not a role of template ${id}`);
  const now = sc.now();
  const e = Math.floor(now.getTime() / 1000) + PREVIEW_TTL_SECONDS;
  const token = signClaims(sc.config, { t: id, a: scope.accountId, v: scope.environment, r: role, e });
  return { url: `${sc.config.PUBLIC_URL}/s/${token}`, expires_at: new Date(e * 1000).toISOString() };
}

/** signing.open for a preview token: what the role's signer would see, nothing filled in. */
export async function openTemplatePreview(
  sc: Pick<ServiceContext, 'db' | 'config'> & { now: Date; acceptLanguage?: string | null },
  token: string,
) {
  const browser = negotiate(sc.acceptLanguage);
  const claims = readClaims(sc.config, token, sc.now);
  const template = await requireTemplate(sc.db, { accountId: claims.a, environment: claims.v }, claims.t);
  const [docs, fields] = await Promise.all([
    loadTemplateDocuments(sc.db, template.id),
    loadTemplateFields(sc.db, template.id),
  ]);
  return {
    object: 'signing_session' as const,
    status: 'viewed' as const,
    preview: true,
    request: {
      id: 0,
      status: 'draft',
      title: template.name,
      message: null,
      expires_at: null,
      test_mode: claims.v === 'test',
    },
    signer: { id: 0, name: null, email: null, role: claims.r, kind: 'signer' as const },
    code_required: false,
    documents: docs.map((d, index) => ({
      index,
      name: d.name,
      ...signingPages(
        sc.config,
        { ...d, page_sizes: pageRuns(d.pages) },
        { now: sc.now, ttlSeconds: PREVIEW_TTL_SECONDS },
      ),
    })),
    fields: fields
      .filter((f) => f.role === claims.r)
      .map((f) => ({
        id: f.id,
        name: f.name ?? f.id,
        type: f.type as import('@esign/domain').FieldType,
        required: f.required,
        ...(f.options ? { options: f.options } : {}),
        areas: f.areas,
        ...(f.logic ?? {}),
        value: null,
        prefilled: false,
      })),
    filled_by_others: [],
    // Issue 46: the other roles' fields, so the preview evaluates conditions as a signer's page does.
    ...(fields.some((f) => f.logic)
      ? {
          form_fields: fields
            .filter((f) => f.role !== claims.r)
            .map((f) => ({
              name: f.name ?? f.id,
              type: f.type as import('@esign/domain').FieldType,
              role: f.role,
              required: f.required,
              ...(f.logic ?? {}),
            })),
        }
      : {}),
    // A preview has no signer or request: the browser's language, like a signer with none set.
    locale: browser ?? 'en',
    locale_source: browser ? ('browser' as const) : ('default' as const),
    consent_text: consentText(browser ?? 'en'),
    redirect_url: null,
  };
}
