import {
  archiveAccount,
  type Config,
  CoreError,
  createAccount,
  createUser,
  getCredits,
  grantCredits,
  issueApiKey,
  listMail,
  requireUserByEmail,
  revokeApiKey,
  updateUser,
} from '@esign/core';
import { type Db, migrateToLatest } from '@esign/db';

export type Options = Record<string, string | boolean | string[] | undefined>;

export interface CommandContext {
  db: Db;
  config: Config;
  now: () => Date;
}

export interface Command {
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  run(ctx: CommandContext, opts: Options): Promise<unknown>;
  text?(result: any): string;
}

function str(opts: Options, name: string, required: true): string;
function str(opts: Options, name: string, required?: false): string | undefined;
function str(opts: Options, name: string, required = false): string | undefined {
  const v = opts[name];
  if (typeof v === 'string' && v !== '') return v;
  if (required) throw new CoreError('missing_parameter', `--${name} is required`);
  return undefined;
}

function int(opts: Options, name: string, required = false): number | undefined {
  const v = str(opts, name, required as true);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v))
    throw new CoreError('invalid_parameter', `--${name} must be an integer, got "${v}"`);
  return Number(v);
}

function date(opts: Options, name: string): Date | undefined {
  const v = str(opts, name);
  if (v === undefined) return undefined;
  const d = new Date(v);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(v)) {
    throw new CoreError('invalid_parameter', `--${name} must be an ISO 8601 date-time, got "${v}"`);
  }
  return d;
}

function oneOf<T extends string>(opts: Options, name: string, values: readonly T[], fallback: T): T {
  const v = str(opts, name) ?? fallback;
  if (!values.includes(v as T))
    throw new CoreError('invalid_parameter', `--${name} must be one of ${values.join(', ')}`);
  return v as T;
}

const userDto = (u: {
  id: number;
  email: string;
  name: string | null;
  account_id?: number;
  role?: string;
  billing_country?: string | null;
}) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  ...(u.account_id !== undefined ? { account_id: u.account_id } : {}),
  ...(u.role !== undefined ? { role: u.role } : {}),
  ...(u.billing_country !== undefined ? { billing_country: u.billing_country } : {}),
});

/** operations.md §3. Each command is a thin call into core services. */
export const commands: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
    options: {},
    run: async (ctx) => migrateToLatest(ctx.db),
    text: (r) => (r.applied.length ? `Applied: ${r.applied.join(', ')}` : 'Database is up to date'),
  },
  'account create': {
    usage:
      'account create --email E [--name N] [--password P] [--account-name A] [--billing-country CC] [--credits N] [--overdraft N] [--lifetime]',
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      'account-name': { type: 'string' },
      'billing-country': { type: 'string' },
      credits: { type: 'string' },
      overdraft: { type: 'string' },
      lifetime: { type: 'boolean' },
    },
    run: async (ctx, o) =>
      ctx.db.transaction().execute(async (tx) => {
        const { account, user } = await createAccount(
          tx,
          {
            email: str(o, 'email', true),
            name: str(o, 'name'),
            password: str(o, 'password'),
            accountName: str(o, 'account-name'),
            billingCountry: str(o, 'billing-country'),
            credits: int(o, 'credits'),
            overdraft: int(o, 'overdraft'),
            lifetime: o.lifetime === true,
          },
          ctx.now(),
        );
        return { account, user: userDto(user) };
      }),
    text: (r) => `Created account ${r.account.id} with admin ${r.user.email} (user ${r.user.id})`,
  },
  'account archive': {
    usage: 'account archive --id N',
    options: { id: { type: 'string' } },
    run: async (ctx, o) => ({ account: await archiveAccount(ctx.db, int(o, 'id', true)!, ctx.now()) }),
    text: (r) => `Account ${r.account.id} archived at ${r.account.archived_at}`,
  },
  'user create': {
    usage: 'user create --account-id N --email E [--name N] [--password P] [--role admin|member|viewer]',
    options: {
      'account-id': { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
    },
    run: async (ctx, o) => ({
      user: userDto(
        await createUser(ctx.db, {
          accountId: int(o, 'account-id', true)!,
          email: str(o, 'email', true),
          name: str(o, 'name'),
          password: str(o, 'password'),
          role: oneOf(o, 'role', ['admin', 'member', 'viewer'] as const, 'member'),
        }),
      ),
    }),
    text: (r) => `Created user ${r.user.id} (${r.user.email}, ${r.user.role})`,
  },
  'user update': {
    usage: 'user update --email E [--billing-country CC] [--name N] [--password P]',
    options: {
      email: { type: 'string' },
      'billing-country': { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
    },
    run: async (ctx, o) => ({
      user: userDto(
        await updateUser(
          ctx.db,
          str(o, 'email', true),
          { name: str(o, 'name'), password: str(o, 'password'), billingCountry: str(o, 'billing-country') },
          ctx.now(),
        ),
      ),
    }),
    text: (r) => `Updated user ${r.user.id} (${r.user.email})`,
  },
  'key create': {
    usage: 'key create --email E [--env live|test] [--permission full|read] [--name N] [--expires-at ISO]',
    options: {
      email: { type: 'string' },
      env: { type: 'string' },
      permission: { type: 'string' },
      name: { type: 'string' },
      'expires-at': { type: 'string' },
    },
    run: async (ctx, o) => {
      const user = await requireUserByEmail(ctx.db, str(o, 'email', true));
      return issueApiKey(ctx.db, {
        userId: user.id,
        environment: oneOf(o, 'env', ['live', 'test'] as const, 'live'),
        permission: oneOf(o, 'permission', ['full', 'read'] as const, 'full'),
        name: str(o, 'name'),
        expiresAt: date(o, 'expires-at') ?? null,
      });
    },
    text: (r) => `API key ${r.id} (${r.environment}, ${r.permission}); shown once:\n${r.key}`,
  },
  'key revoke': {
    usage: 'key revoke --id N',
    options: { id: { type: 'string' } },
    run: async (ctx, o) => revokeApiKey(ctx.db, int(o, 'id', true)!, ctx.now()),
    text: (r) => `API key ${r.id} revoked at ${r.revoked_at}`,
  },
  'credits grant': {
    usage: 'credits grant --email E --credits N',
    options: { email: { type: 'string' }, credits: { type: 'string' } },
    run: async (ctx, o) => {
      const user = await requireUserByEmail(ctx.db, str(o, 'email', true));
      const credits = await grantCredits(
        ctx.db,
        user.account_id,
        int(o, 'credits', true)!,
        'esign credits grant',
        ctx.now(),
      );
      return { object: 'credits', ...credits, purchase_url: `${ctx.config.PUBLIC_URL}/billing` };
    },
    text: (r) => (r.unlimited ? 'Unlimited (lifetime plan)' : `${r.available} credits available`),
  },
  'credits show': {
    usage: 'credits show --email E',
    options: { email: { type: 'string' } },
    run: async (ctx, o) => {
      const user = await requireUserByEmail(ctx.db, str(o, 'email', true));
      return {
        object: 'credits',
        ...(await getCredits(ctx.db, user.account_id)),
        purchase_url: `${ctx.config.PUBLIC_URL}/billing`,
      };
    },
    text: (r) => (r.unlimited ? 'Unlimited (lifetime plan)' : `${r.available} credits available`),
  },
  'mail list': {
    usage: 'mail list [--to E] [--limit N]',
    options: { to: { type: 'string' }, limit: { type: 'string' } },
    run: async (ctx, o) => listMail(ctx.db, { to: str(o, 'to'), limit: int(o, 'limit') }),
    text: (r) =>
      r.data.length
        ? r.data
            .map((m: any) => `#${m.id} ${m.created_at} to ${m.to}: ${m.subject}\n  ${m.links.join('\n  ')}`)
            .join('\n')
        : 'No mail',
  },
};
