import { randomBytes } from 'node:crypto';
import { json, type TemplateLinkRow, type TemplateRow } from '@esign/db';
import { findTemplateLink, upsertTemplateLink } from '@esign/db/queries/links';
import type { Config } from '../../config.ts';
import type { Actor, Scope } from '../../context.ts';
import { scopeOf } from '../../context.ts';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import { hmac } from '../secret.ts';
import type { ServiceContext } from '../service-context.ts';
import { lockTemplate, requireTemplate } from '../templates/queries.ts';

// A template's public signing link: its settings, as the owner turns it on, off or changes it.

export interface PresetSigner {
  role: string;
  name?: string | null;
  email: string;
}

export interface SigningLinkUpdate {
  enabled?: boolean;
  role?: string;
  preset_signers?: PresetSigner[];
  max_uses?: number | null;
  /** A new address: the old one stops working at once. */
  rotate?: boolean;
}

export interface SigningLinkDto {
  object: 'signing_link';
  template_id: number;
  enabled: boolean;
  url: string | null;
  role: string | null;
  preset_signers: PresetSigner[];
  max_uses: number | null;
  uses: number;
  updated_at: string | null;
}

/** The link's address is derived from a stored nonce with the server secret; only its hash is searchable. */
const linkToken = (config: Config, nonce: string) =>
  hmac(config, 'template-link', nonce).toString('base64url');
const linkUrl = (config: Config, nonce: string) => `${config.PUBLIC_URL}/l/${linkToken(config, nonce)}`;

function newLinkToken(config: Config) {
  const nonce = randomBytes(24).toString('base64url');
  return { token_nonce: nonce, token_hash: sha256Hex(linkToken(config, nonce)) };
}

function toSigningLinkDto(
  config: Config,
  templateId: number,
  row: TemplateLinkRow | undefined,
): SigningLinkDto {
  return {
    object: 'signing_link',
    template_id: templateId,
    enabled: row?.enabled ?? false,
    url: row ? linkUrl(config, row.token_nonce) : null,
    role: row?.role ?? null,
    preset_signers: row?.preset_signers ?? [],
    max_uses: row?.max_uses ?? null,
    uses: row?.uses ?? 0,
    updated_at: row?.updated_at.toISOString() ?? null,
  };
}

/**
 * The visitor fills one role; every other role of the template must be pre-assigned, each once,
 * with an email. Checked when the link is saved, and again by the send rules on every visit.
 */
export function checkLinkRoles(template: TemplateRow, role: string, presets: PresetSigner[]): void {
  const roles = template.roles;
  if (!roles.includes(role))
    throw new CoreError(
      'invalid_parameter',
      `role: "${role}" is not a role of this template (${roles.join(', ')})`,
    );
  const seen = new Set([role]);
  for (const [i, p] of presets.entries()) {
    if (!roles.includes(p.role))
      throw new CoreError(
        'invalid_parameter',
        `preset_signers[${i}].role: "${p.role}" is not a role of this template`,
      );
    if (seen.has(p.role))
      throw new CoreError('invalid_parameter', `preset_signers[${i}].role: "${p.role}" is filled twice`);
    seen.add(p.role);
  }
  const missing = roles.filter((r) => !seen.has(r));
  if (missing.length) {
    throw new CoreError(
      'invalid_parameter',
      `A public link is for a template whose other roles are pre-assigned: add preset_signers for ${missing.join(', ')}`,
    );
  }
}

export async function getSigningLink(
  sc: ServiceContext,
  scope: Scope,
  templateId: number,
): Promise<SigningLinkDto> {
  await requireTemplate(sc.db, scope, templateId);
  return toSigningLinkDto(sc.config, templateId, await findTemplateLink(sc.db, templateId));
}

/** PATCH /templates/{id}/signing_link: only sent keys change; turning it on checks the roles. */
export async function updateSigningLink(
  sc: ServiceContext,
  actor: Actor,
  { id: templateId, ...input }: SigningLinkUpdate & { id: number },
): Promise<SigningLinkDto> {
  const scope = scopeOf(actor);
  const now = sc.now();
  const row = await sc.db.transaction().execute(async (tx) => {
    const template = await lockTemplate(tx, scope, templateId);
    const current = await findTemplateLink(tx, templateId);
    const enabled = input.enabled ?? current?.enabled ?? false;
    if (enabled && template.archived_at)
      throw new CoreError(
        'template_archived',
        `Template ${templateId} is archived: its link cannot be turned on`,
      );
    const role = input.role ?? current?.role ?? template.roles[0] ?? 'Signer';
    const presets = input.preset_signers ?? current?.preset_signers ?? [];
    if (enabled) checkLinkRoles(template, role, presets);
    const values = {
      enabled,
      role,
      preset_signers: json(presets),
      max_uses: input.max_uses === undefined ? (current?.max_uses ?? null) : input.max_uses,
      user_id: enabled && !current?.enabled ? actor.userId : (current?.user_id ?? actor.userId),
      updated_at: now,
      ...(input.rotate || !current
        ? newLinkToken(sc.config)
        : { token_nonce: current.token_nonce, token_hash: current.token_hash }),
    };
    const saved = await upsertTemplateLink(tx, {
      insert: {
        template_id: templateId,
        account_id: scope.accountId,
        environment: scope.environment,
        ...values,
      },
      update: values,
    });
    await recordAudit(tx, scope, {
      type: 'template.link_updated',
      by: { kind: 'actor', actor },
      templateId,
      data: { enabled, role, max_uses: saved.max_uses, rotated: Boolean(input.rotate) },
      now,
    });
    return saved;
  });
  return toSigningLinkDto(sc.config, templateId, row);
}
