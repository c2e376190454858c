import { findAccountSso, findSsoAccountByDomain, insertSsoLogin, useSsoLogin } from '@esign/db/queries/sso';
import { findSignInUser } from '@esign/db/queries/users';
import { USER_ROLES, type UserRole } from '@esign/domain';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { createUser } from '../accounts.ts';
import { recordAudit } from '../audit.ts';
import { hitRateLimit } from '../rate-limit.ts';
import type { ServiceContext } from '../service-context.ts';
import { createSession, type NewSession, type SessionMeta } from './sessions.ts';
import { oidc, openVerifier, providerConfig, sealVerifier, ssoRedirectUri } from './sso-client.ts';

// Signing in with the company's identity provider (issue 45 item 4), OpenID Connect's
// authorization code flow with PKCE, state and nonce. /sso/start finds the account by the email's
// domain and sends the browser to the provider; /sso/callback redeems the code (openid-client
// checks the ID token) and opens a session (method `sso`), creating the user on first sign-in.

const SSO_LOGIN_TTL_MS = 10 * 60_000;
/** Sign-ins sent to a provider per address and minute. */
const SSO_STARTS_PER_MINUTE = 20;

/** Why a single sign-on failed, as /login?sso_error= names it (the page has words for each). */
export type SsoFailure =
  | 'unknown_domain'
  | 'expired'
  | 'provider'
  | 'other_domain'
  | 'unverified'
  | 'not_allowed';

export class SsoError extends CoreError {
  readonly reason: SsoFailure;
  constructor(reason: SsoFailure, message: string) {
    super(reason === 'unknown_domain' ? 'not_found' : 'unauthenticated', message);
    this.reason = reason;
  }
}

const domainOf = (email: string) => email.trim().toLowerCase().split('@').pop() ?? '';

/** The provider's authorization URL for this sign-in, and the state the browser keeps in a cookie. */
export async function startSsoSignIn(
  sc: ServiceContext,
  input: { email: string; next: string | null; ip: string | null },
): Promise<{ url: string; state: string }> {
  const now = sc.now();
  if (input.ip) {
    const hit = await hitRateLimit(sc.db, `sign_in:sso:ip:${input.ip}`, {
      limit: SSO_STARTS_PER_MINUTE,
      now,
    });
    if (hit.limited) {
      throw new CoreError(
        'rate_limited',
        `Too many attempts. Wait ${hit.resetSeconds} seconds, then try again.`,
        {
          retryAfterSeconds: hit.resetSeconds,
        },
      );
    }
  }
  const accountId = await findSsoAccountByDomain(sc.db, domainOf(input.email));
  const sso = accountId === undefined ? undefined : await findAccountSso(sc.db, accountId);
  if (!sso)
    throw new SsoError('unknown_domain', 'No account signs in with single sign-on for this email domain');
  const config = await providerConfig(sc, sso).catch((e: unknown) => providerFailed(sc, e));
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const stateHash = sha256Hex(state);
  await insertSsoLogin(sc.db, {
    stateHash,
    accountId: sso.account_id,
    nonce,
    codeVerifier: sealVerifier(sc.config, stateHash, verifier),
    next: input.next,
    now,
    expiresAt: new Date(now.getTime() + SSO_LOGIN_TTL_MS),
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: ssoRedirectUri(sc.config),
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    login_hint: input.email.trim(),
  });
  return { url: url.href, state };
}

function providerFailed(sc: Pick<ServiceContext, 'logger'>, e: unknown): never {
  // openid-client's messages name the check that failed, never a secret.
  const err = e as { message?: string; code?: string; error?: string };
  sc.logger.warn({ reason: err.message, code: err.code, error: err.error }, 'single sign-on refused');
  throw new SsoError('provider', 'The identity provider’s answer could not be verified');
}

/** The role of a new user: mapped from a claim when one of its values is mapped, else the default. */
export function roleFromClaims(
  sso: { default_role: UserRole; role_claim: string | null; role_map: Record<string, string> },
  claims: Record<string, unknown>,
): UserRole {
  const value = sso.role_claim ? claims[sso.role_claim] : undefined;
  const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  const mapped = values
    .map((v) => sso.role_map[v])
    .filter((r): r is UserRole => USER_ROLES.includes(r as UserRole));
  // The strongest mapped role wins (admin, member, viewer).
  return USER_ROLES.find((r) => mapped.includes(r)) ?? sso.default_role;
}

/** Redeems the provider's answer: the session, and where to go (`next`). */
export async function finishSsoSignIn(
  sc: ServiceContext,
  input: { query: string; cookieState: string | null },
  meta: SessionMeta,
): Promise<{ session: NewSession; next: string | null }> {
  const now = sc.now();
  const callback = new URL(`${ssoRedirectUri(sc.config)}?${input.query}`);
  const state = callback.searchParams.get('state');
  // The state must be this browser's (its cookie) and unused: a replayed or foreign answer stops here.
  if (!state || state !== input.cookieState)
    throw new SsoError('expired', 'This single sign-on attempt is not this browser’s');
  const stateHash = sha256Hex(state);
  const login = await useSsoLogin(sc.db, { stateHash, now });
  if (!login) throw new SsoError('expired', 'This single sign-on attempt expired or was already used');
  const sso = await findAccountSso(sc.db, login.account_id);
  if (!sso) throw new SsoError('provider', 'Single sign-on is no longer set up for this account');
  const claims = await redeem(sc, {
    sso,
    callback,
    state,
    nonce: login.nonce,
    verifier: openVerifier(sc.config, stateHash, login.code_verifier),
  });
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email || claims.email_verified === false)
    throw new SsoError('unverified', 'The provider did not confirm an email address');
  if (!sso.domains.includes(domainOf(email))) {
    throw new SsoError('other_domain', `${email} is not of this account’s email domains`);
  }
  const session = await sc.db.transaction().execute(async (tx) => {
    const userId = await ssoUser(tx, { sso, email, claims, now, meta });
    return createSession(tx, userId, { ...meta, now, method: 'sso' });
  });
  return { session, next: login.next };
}

async function redeem(
  sc: ServiceContext,
  input: {
    sso: { account_id: number; issuer: string; client_id: string; client_secret_sealed: string };
    callback: URL;
    state: string;
    nonce: string;
    verifier: string;
  },
): Promise<Record<string, unknown>> {
  try {
    const config = await providerConfig(sc, input.sso);
    const tokens = await oidc.authorizationCodeGrant(config, input.callback, {
      pkceCodeVerifier: input.verifier,
      expectedState: input.state,
      expectedNonce: input.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider sent no ID token');
    if (typeof claims.email === 'string') return claims as Record<string, unknown>;
    // Providers that keep profile claims for the userinfo endpoint (OpenID Connect Core 5.4):
    // openid-client checks that its subject is the ID token's.
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    return { ...info, ...claims, email: info.email, email_verified: info.email_verified } as Record<
      string,
      unknown
    >;
  } catch (e) {
    return providerFailed(sc, e);
  }
}

/** The user the provider vouched for: found by email in this account, or created with their role. */
async function ssoUser(
  tx: ServiceContext['db'],
  input: {
    sso: Awaited<ReturnType<typeof findAccountSso>> & object;
    email: string;
    claims: Record<string, unknown>;
    now: Date;
    meta: SessionMeta;
  },
): Promise<number> {
  const { sso, email, claims, now, meta } = input;
  const by = (userId: number) => ({
    kind: 'user' as const,
    userId,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
  });
  const scope = { accountId: sso.account_id, environment: 'live' as const };
  const existing = await findSignInUser(tx, email);
  if (existing) {
    if (existing.account_id !== sso.account_id || existing.disabled_at || existing.archived_at) {
      throw new SsoError('not_allowed', 'This user can no longer sign in; ask an admin of the account');
    }
    await recordAudit(tx, scope, { type: 'user.sso_signed_in', by: by(existing.id), now });
    return existing.id;
  }
  const name = typeof claims.name === 'string' ? claims.name.slice(0, 200) : null;
  const role = roleFromClaims(sso, claims);
  const user = await createUser(tx, { accountId: sso.account_id, email, name, role });
  await recordAudit(tx, scope, { type: 'user.created_by_sso', by: by(user.id), data: { role }, now });
  return user.id;
}
