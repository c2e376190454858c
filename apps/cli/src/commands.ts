import { type Config, CoreError } from '@esign/core';
import {
  archiveAccount,
  createAccount,
  createUser,
  createWebhookEndpoint,
  disableWebhookEndpoint,
  getCredits,
  grantCredits,
  issueApiKey,
  listMail,
  listSms,
  listWebhookDeliveries,
  listWebhookEndpoints,
  type MessageChannel,
  requireUserByEmail,
  retryUndeliverableMessages,
  revokeApiKey,
  sendTestWebhook,
  updateUser,
  webhookEndpointScope,
} from '@esign/core/operator';
import { type Db, migrateToLatest } from '@esign/db';
import { USER_ROLES } from '@esign/domain';

export type Options = Record<string, string | boolean | string[] | undefined>;

interface CommandContext {
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

export function str(opts: Options, name: string, required: true): string;
export function str(opts: Options, name: string, required?: false): string | undefined;
export function str(opts: Options, name: string, required = false): string | undefined {
  const v = opts[name];
  if (typeof v === 'string' && v !== '') return v;
  if (required) throw new CoreError('missing_parameter', `--${name} is required`);
  return undefined;
}

export function int(opts: Options, name: string, required = false): number | undefined {
  const v = str(opts, name, required as true);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v))
    throw new CoreError('invalid_parameter', `--${name} must be an integer, got "${v}"`);
  return Number(v);
}

export function date(opts: Options, name: string): Date | undefined {
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

/** `--events a,b,c`: undefined when not given (the service applies the default). */
function list(opts: Options, name: string): string[] | undefined {
  const v = opts[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string')
    throw new CoreError('invalid_parameter', `--${name} takes a comma-separated list`);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** `--header K:V`, repeatable: the first colon separates the name from the value. */
function headers(opts: Options, name: string): Record<string, string> | undefined {
  const v = opts[name];
  if (v === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const entry of Array.isArray(v) ? v : [String(v)]) {
    const colon = entry.indexOf(':');
    const key = colon === -1 ? '' : entry.slice(0, colon).trim();
    if (key === '')
      throw new CoreError('invalid_parameter', `--${name} must look like Name:value, got "${entry}"`);
    if (Object.keys(out).some((k) => k.toLowerCase() === key.toLowerCase())) {
      throw new CoreError('invalid_parameter', `--${name} ${key} is given twice`);
    }
    out[key] = entry.slice(colon + 1).trim();
  }
  return out;
}

const deliveryLine = (d: any) => {
  const last = d.attempts.at(-1);
  const outcome = last
    ? last.status_code
      ? `HTTP ${last.status_code}`
      : (last.error ?? 'in flight')
    : 'not tried yet';
  return `#${d.id} ${d.event.type} ${d.event.id}: ${d.status} after ${d.attempt_count} attempt(s), last: ${outcome}${d.next_attempt_at ? `; next at ${d.next_attempt_at}` : ''}`;
};

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

/** `mail retry` / `sms retry`: one undeliverable message (`--id N`) or every one (`--all`). */
function retryCommand(channel: MessageChannel): Command {
  return {
    usage: `${channel} retry (--id N | --all)`,
    options: { id: { type: 'string' }, all: { type: 'boolean' } },
    run: async (ctx, o) => {
      const id = int(o, 'id') ?? null;
      if ((id === null) === (o.all !== true))
        throw new CoreError(
          'missing_parameter',
          'give either --id N (one message) or --all (every undeliverable one)',
        );
      if (id !== null && id < 1)
        throw new CoreError('invalid_parameter', `--id must be a positive integer, got "${id}"`);
      return retryUndeliverableMessages(ctx, channel, { id, now: ctx.now() });
    },
    text: (r) =>
      r.data.length
        ? `Queued again (the worker sends them):\n${r.data.map((m: any) => `#${m.id} to ${m.to} (after ${m.attempts} attempt(s), last: ${m.last_error ?? 'none'})`).join('\n')}`
        : `No undeliverable ${channel === 'mail' ? 'mail' : 'SMS'} to queue again`,
  };
}

/** README, "`esign` commands". Each command is a thin call into core services. */
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
          role: oneOf(o, 'role', USER_ROLES, 'member'),
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
        await updateUser(ctx.db, str(o, 'email', true), {
          name: str(o, 'name'),
          password: str(o, 'password'),
          billingCountry: str(o, 'billing-country'),
          now: ctx.now(),
        }),
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
      const credits = await grantCredits(ctx.db, user.account_id, {
        credits: int(o, 'credits', true)!,
        note: 'esign credits grant',
        now: ctx.now(),
      });
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
  'webhook create': {
    usage: 'webhook create --email E --url U [--env live|test] [--events a,b,...] [--header K:V ...]',
    options: {
      email: { type: 'string' },
      url: { type: 'string' },
      env: { type: 'string' },
      events: { type: 'string' },
      header: { type: 'string', multiple: true },
    },
    run: async (ctx, o) => {
      const user = await requireUserByEmail(ctx.db, str(o, 'email', true));
      const scope = {
        accountId: user.account_id,
        environment: oneOf(o, 'env', ['live', 'test'] as const, 'live'),
      };
      const { endpoint, secret } = await createWebhookEndpoint(ctx.db, scope, {
        input: {
          url: str(o, 'url', true),
          events: list(o, 'events'),
          headers: headers(o, 'header'),
          createdByUserId: user.id,
        },
        config: ctx.config,
        now: ctx.now,
      });
      return { id: endpoint.id, url: endpoint.url, events: endpoint.events, secret };
    },
    text: (r) =>
      `Webhook endpoint ${r.id}: ${r.url}\nEvents: ${r.events.join(', ')}\nSigning secret (shown once):\n${r.secret}`,
  },
  'webhook test': {
    usage: 'webhook test --id N',
    options: { id: { type: 'string' } },
    run: async (ctx, o) => {
      const id = int(o, 'id', true)!;
      const scope = await webhookEndpointScope(ctx.db, id);
      return sendTestWebhook(ctx, scope, { endpointId: id, config: ctx.config, now: ctx.now });
    },
    text: deliveryLine,
  },
  'webhook deliveries': {
    usage: 'webhook deliveries --id N [--status pending|succeeded|failed] [--limit N] [--cursor C]',
    options: {
      id: { type: 'string' },
      status: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
    },
    run: async (ctx, o) => {
      const id = int(o, 'id', true)!;
      const scope = await webhookEndpointScope(ctx.db, id);
      const status = str(o, 'status');
      return listWebhookDeliveries(ctx.db, scope, {
        endpointId: id,
        status:
          status === undefined
            ? undefined
            : oneOf(o, 'status', ['pending', 'succeeded', 'failed'] as const, 'pending'),
        limit: int(o, 'limit'),
        cursor: int(o, 'cursor'),
      });
    },
    text: (r) => (r.data.length ? r.data.map(deliveryLine).join('\n') : 'No deliveries'),
  },
  'webhook list': {
    usage: 'webhook list --email E [--env live|test]',
    options: { email: { type: 'string' }, env: { type: 'string' } },
    run: async (ctx, o) => {
      const user = await requireUserByEmail(ctx.db, str(o, 'email', true));
      const environment = oneOf(o, 'env', ['live', 'test'] as const, 'live');
      return { data: await listWebhookEndpoints(ctx.db, { accountId: user.account_id, environment }) };
    },
    text: (r) =>
      r.data.length
        ? r.data
            .map(
              (e: any) => `#${e.id} ${e.enabled ? 'enabled ' : 'disabled'} ${e.url} (${e.events.join(', ')})`,
            )
            .join('\n')
        : 'No webhook endpoints',
  },
  'webhook disable': {
    usage: 'webhook disable --id N',
    options: { id: { type: 'string' } },
    run: async (ctx, o) => {
      const id = int(o, 'id', true)!;
      const scope = await webhookEndpointScope(ctx.db, id);
      return disableWebhookEndpoint(ctx.db, scope, { id, now: ctx.now() });
    },
    text: (r) => `Webhook endpoint ${r.id} disabled`,
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
  'mail retry': retryCommand('mail'),
  'sms list': {
    usage: 'sms list [--to PHONE] [--limit N]',
    options: { to: { type: 'string' }, limit: { type: 'string' } },
    run: async (ctx, o) => listSms(ctx.db, { to: str(o, 'to'), limit: int(o, 'limit') }),
    text: (r) =>
      r.data.length
        ? r.data.map((m: any) => `#${m.id} ${m.created_at} to ${m.to} (${m.status}): ${m.text}`).join('\n')
        : 'No SMS',
  },
  'sms retry': retryCommand('sms'),
};
