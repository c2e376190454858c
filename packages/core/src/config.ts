import { isIP } from 'node:net';
import { EMAIL_PATTERN } from '@esign/domain';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const positiveInt = z.coerce.number().int().positive();

/** The address ranges proxy-addr (Fastify's trustProxy) knows by name. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, an address/prefix-length (CIDR) or a named range, as Fastify's trustProxy takes them. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which reverse proxies' `X-Forwarded-For` (and `-Proto`, `-Host`) the service
 * believes, so `request.ip` is the client's address rather than the proxy's. Unset (or `false`):
 * none, the address is the TCP peer's. A hop count (`1`: the proxy in front of us), or a list of
 * the proxies' addresses, CIDR ranges or named ranges (`loopback`, `linklocal`, `uniquelocal`).
 * `true` is refused: it would let any client choose its own address (the per-address limits).
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): number | string[] | false => {
    if (value === 'false') return false;
    if (/^\d+$/.test(value) && Number(value) <= 32) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (value !== 'true' && bad.length === 0) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        value === 'true'
          ? "true would trust any client's X-Forwarded-For: give the hop count (such as 1) or the proxies' addresses"
          : `must be a hop count (0 to 32) or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; not ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    });
    return z.NEVER;
  });

/** The configuration (README, Configuration). Parsed once per process by its env.ts; a bad value stops the process naming it. */
const ConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /**
     * Prometheus metrics (README, "Monitoring") on a port of their own, bound where PORT is; unset:
     * no metrics port at all, so nothing is public by accident.
     */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    /**
     * A database that does not answer (frozen, overloaded, cut off) fails a request after these,
     * as 503 with Retry-After, instead of holding it: the longest one statement may take (the
     * server cancels it; a server that does not answer at all is given up on at the same time), and
     * the longest a request waits for a pooled connection. Migrations have no statement limit.
     */
    DATABASE_STATEMENT_TIMEOUT_SECONDS: positiveInt.max(3600).default(10),
    DATABASE_ACQUIRE_TIMEOUT_SECONDS: positiveInt.max(600).default(5),
    STORAGE_URL: z
      .string()
      .regex(/^s3:\/\/[^/?]+/, 'must look like s3://bucket?endpoint=...&region=...')
      .optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('E-Signature <no-reply@localhost>'),
    /**
     * Issue 44 (docs/branding.md): a brand's own From address is used only when the operator's SMTP
     * may send as it (SPF/DKIM for that domain); otherwise the brand's display name with MAIL_FROM's address.
     */
    ALLOW_BRAND_FROM_ADDRESS: bool.default(false),
    OPERATOR_EMAIL: z.email({ pattern: EMAIL_PATTERN }).optional(),
    /** SMS to signers (README, Configuration; docs/sending.md): unset, messages stay in the SMS outbox. */
    SMS_PROVIDER: z.enum(['twilio']).optional(),
    TWILIO_ACCOUNT_SID: z
      .string()
      .regex(/^AC[0-9a-zA-Z]{32}$/, 'must be a Twilio account SID (AC followed by 32 characters)')
      .optional(),
    TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
    TWILIO_FROM: z
      .string()
      .regex(/^\+[1-9]\d{4,14}$|^[A-Za-z0-9 ]{1,11}$/, 'must be an E.164 number or an alphanumeric sender ID')
      .optional(),
    TWILIO_MESSAGING_SERVICE_SID: z
      .string()
      .regex(/^MG[0-9a-zA-Z]{32}$/, 'must be a messaging service SID (MG followed by 32 characters)')
      .optional(),
    /** Where the Messages API is: a local server speaking it in tests and staging. */
    TWILIO_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.twilio.com'),
    /** The most SMS one account side (live or test) may queue in any 24 hours; beyond, they are `capped`. */
    SMS_DAILY_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(100),
    /** How long an email or SMS is retried (capped exponential back-off) before it is `undeliverable`. */
    MESSAGE_RETRY_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(48),
    SIGNING_CERT_P12: z.string().min(1).optional(),
    SIGNING_CERT_PASSWORD: z.string().optional(),
    /** RFC 3161 time-stamping authority for PAdES B-T/B-LT/B-LTA seals (docs/verify.md); unset: B-B. */
    TSA_URL: z.url({ protocol: /^https?$/ }).optional(),
    TSA_USERNAME: z.string().min(1).optional(),
    TSA_PASSWORD: z.string().optional(),
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    PAYMENT_PROVIDER: z.enum(['simulated', 'stripe']).default('simulated'),
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    RATE_LIMIT_PER_MINUTE: positiveInt.default(300),
    /** Which reverse proxies' X-Forwarded-For to believe (README, Configuration); unset: none. */
    TRUST_PROXY: trustProxy.optional(),
    WEBHOOK_ALLOW_PRIVATE: bool.default(false),
    /** Issue 45: single sign-on may reach an identity provider at a private address (docs/sign-in.md). */
    SSO_ALLOW_PRIVATE: bool.default(false),
    WEBHOOK_RETRY_BASE_SECONDS: positiveInt.default(60),
    WEBHOOK_TIMEOUT_SECONDS: positiveInt.default(30),
    WEBHOOK_SERVICE_NAME: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be a header-safe word such as Esign')
      .default('Esign'),
    /** Lets anyone create an account at /signup (README, "Dashboard"); off by default. */
    SIGNUP_ENABLED: bool.default(false),
    /** Credits a new account made at /signup starts with (README, "Dashboard"); the operator decides. */
    SIGNUP_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(0),
    /** Jobs one worker process runs at once (apps/worker). */
    WORKER_CONCURRENCY: positiveInt.default(4),
    /**
     * Webhook deliveries one worker process makes at once, on slots of their own (a delivery waits on
     * the network and the database, not the CPU, so many run side by side).
     */
    WEBHOOK_CONCURRENCY: positiveInt.max(256).default(32),
    // The document pool (packages/pdf isolate.ts): worker processes shared by the process, and the
    // limits of one document. Unset DOCUMENT_WORKERS: the cores, 2 to 4. DOCUMENT_MEMORY_MB is the
    // most memory (resident) one worker process may use; 480 keeps each under 500 MB.
    DOCUMENT_WORKERS: positiveInt.max(64).optional(),
    DOCUMENT_TIMEOUT_SECONDS: positiveInt.max(600).default(60),
    DOCUMENT_MEMORY_MB: z.coerce.number().int().min(64).max(16384).default(480),
    /**
     * Decompression bombs (issue 29.4): the most one stream of an uploaded PDF may decompress to (an
     * image may have no more samples either) and all its streams together; beyond, 422 invalid_document.
     */
    DOCUMENT_STREAM_INFLATED_MB: positiveInt.max(16384).default(128),
    DOCUMENT_INFLATED_MB: positiveInt.max(65536).default(2048),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * On SIGTERM, how long a process keeps serving (with /readyz at 503 and `Connection: close`)
     * before it stops listening, so load balancers take it out of rotation first. SIGINT skips it.
     */
    SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(3),
    /** Longest a stopping process waits for its requests and jobs in flight before it ends them. */
    SHUTDOWN_TIMEOUT_SECONDS: positiveInt.max(3600).default(30),
    /**
     * How many times the supervisor of `npm start` has restarted this process so far (it sets it
     * when it starts the service again); shown as the metric esign_process_restarts. Unset: 0.
     */
    ESIGN_RESTART_COUNT: z.coerce.number().int().min(0).default(0),
  })
  .superRefine((c, ctx) => {
    if (c.METRICS_PORT !== undefined && c.METRICS_PORT === c.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT' });
    }
    for (const key of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const) {
      if (c.SMS_PROVIDER === 'twilio' && !c[key])
        ctx.addIssue({ code: 'custom', path: [key], message: 'is required when SMS_PROVIDER=twilio' });
    }
    if (c.SMS_PROVIDER === 'twilio' && !c.TWILIO_FROM && !c.TWILIO_MESSAGING_SERVICE_SID) {
      ctx.addIssue({
        code: 'custom',
        path: ['TWILIO_FROM'],
        message: 'or TWILIO_MESSAGING_SERVICE_SID is required when SMS_PROVIDER=twilio',
      });
    }
    if (c.TSA_USERNAME && !c.TSA_URL) {
      ctx.addIssue({ code: 'custom', path: ['TSA_USERNAME'], message: 'needs TSA_URL' });
    }
    if (c.PAYMENT_PROVIDER === 'stripe' && !c.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message: 'is required when PAYMENT_PROVIDER=stripe',
      });
    }
    if (c.PAYMENT_PROVIDER === 'stripe' && !c.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_WEBHOOK_SECRET'],
        message: 'is required when PAYMENT_PROVIDER=stripe (payments are confirmed by Stripe webhooks)',
      });
    }
  })
  .transform((c) => ({
    ...c,
    PUBLIC_URL: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
  }));

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Parses the environment; the error names every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}
