import {
  type AccountSsoRow,
  deleteAccountSso,
  domainsTakenByOthers,
  findAccountSso,
  saveAccountSso,
} from '@esign/db/queries/sso';
import { findUserById, findUserStanding } from '@esign/db/queries/users';
import type { UserRole } from '@esign/domain';
import type { Actor } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { findUserByEmail } from '../accounts.ts';
import { recordAudit } from '../audit.ts';
import type { ServiceContext } from '../service-context.ts';
import { discover, openClientSecret, sealClientSecret, ssoRedirectUri } from './sso-client.ts';

// An account's single sign-on settings (issue 45 item 4), for its admins. The client secret is
// sealed at rest and never returned; saving reads the provider's discovery document first, so a
// wrong issuer is found at once.

export interface SsoSettingsDto {
  configured: boolean;
  /** Register this with the provider. */
  redirect_uri: string;
  issuer: string | null;
  client_id: string | null;
  has_client_secret: boolean;
  domains: string[];
  default_role: UserRole;
  role_claim: string | null;
  role_map: Record<string, string>;
  required: boolean;
  break_glass_email: string | null;
}

async function toDto(sc: ServiceContext, row: AccountSsoRow | undefined): Promise<SsoSettingsDto> {
  const breakGlass = row?.break_glass_user_id
    ? await findUserById(sc.db, row.break_glass_user_id)
    : undefined;
  return {
    configured: Boolean(row),
    redirect_uri: ssoRedirectUri(sc.config),
    issuer: row?.issuer ?? null,
    client_id: row?.client_id ?? null,
    has_client_secret: Boolean(row?.client_secret_sealed),
    domains: row?.domains ?? [],
    default_role: row?.default_role ?? 'member',
    role_claim: row?.role_claim ?? null,
    role_map: row?.role_map ?? {},
    required: row?.required ?? false,
    break_glass_email: breakGlass?.email ?? null,
  };
}

export async function ssoSettings(sc: ServiceContext, accountId: number): Promise<SsoSettingsDto> {
  return toDto(sc, await findAccountSso(sc.db, accountId));
}

export interface SsoSettingsInput {
  issuer: string;
  client_id: string;
  client_secret?: string | undefined;
  domains: string[];
  default_role: UserRole;
  role_claim: string | null;
  role_map: Record<string, UserRole>;
  required: boolean;
  break_glass_email: string | null;
}

async function breakGlassUser(
  sc: ServiceContext,
  accountId: number,
  email: string | null,
): Promise<number | null> {
  if (!email) return null;
  const found = await findUserByEmail(sc.db, email.toLowerCase());
  const user = found && (await findUserStanding(sc.db, found.id));
  if (!user || user.account_id !== accountId || user.role !== 'admin' || user.disabled_at) {
    throw new CoreError(
      'invalid_parameter',
      'break_glass_email must be the address of an admin of this account',
    );
  }
  return user.id;
}

/** Sets up or changes the account's provider (admins); recorded in the audit log without the secret. */
export async function saveSsoSettings(
  sc: ServiceContext,
  actor: Actor,
  input: SsoSettingsInput,
): Promise<SsoSettingsDto> {
  const accountId = actor.accountId;
  const current = await findAccountSso(sc.db, accountId);
  const secret =
    input.client_secret ??
    (current ? openClientSecret(sc.config, accountId, current.client_secret_sealed) : null);
  if (!secret) throw new CoreError('missing_parameter', 'client_secret is required');
  const domains = [...new Set(input.domains)];
  const taken = await domainsTakenByOthers(sc.db, { accountId, domains });
  if (taken.length > 0) {
    throw new CoreError(
      'invalid_parameter',
      `domains: ${taken.join(', ')} already sign in to another account`,
    );
  }
  const breakGlass = await breakGlassUser(sc, accountId, input.break_glass_email);
  if (input.required && breakGlass === null) {
    throw new CoreError('missing_parameter', 'break_glass_email is required when single sign-on is required');
  }
  const issuer = input.issuer;
  await discover(sc, { issuer, clientId: input.client_id, secret }).catch((e: unknown) => {
    throw new CoreError(
      'invalid_parameter',
      `issuer: the provider's discovery document could not be used (${e instanceof Error ? e.message : 'no answer'})`,
    );
  });
  const now = sc.now();
  await sc.db.transaction().execute(async (tx) => {
    await saveAccountSso(
      tx,
      {
        account_id: accountId,
        issuer,
        client_id: input.client_id,
        client_secret_sealed: sealClientSecret(sc.config, accountId, secret),
        default_role: input.default_role,
        role_claim: input.role_claim,
        role_map: input.role_map,
        required: input.required,
        break_glass_user_id: breakGlass,
        now,
      },
      domains,
    );
    await recordAudit(
      tx,
      { accountId, environment: 'live' },
      {
        type: 'account.sso_configured',
        by: { kind: 'actor', actor },
        data: { issuer, client_id: input.client_id, domains, required: input.required },
        now,
      },
    );
  });
  return ssoSettings(sc, accountId);
}

export async function removeSsoSettings(sc: ServiceContext, actor: Actor): Promise<{ removed: true }> {
  const now = sc.now();
  await sc.db.transaction().execute(async (tx) => {
    if (!(await deleteAccountSso(tx, actor.accountId)))
      throw new CoreError('not_found', 'Single sign-on is not set up');
    await recordAudit(
      tx,
      { accountId: actor.accountId, environment: 'live' },
      { type: 'account.sso_removed', by: { kind: 'actor', actor }, now },
    );
  });
  return { removed: true };
}
