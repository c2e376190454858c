// The floor for webhook deliveries (issue 31): a bare sender doing only what a delivery must do at
// least. Woken by LISTEN esign_jobs (500 ms poll as the fallback), it claims up to 64 due
// `webhook.deliver` jobs together with their deliveries in one statement (FOR UPDATE SKIP LOCKED,
// each event's `data` read in the same statement), signs each body (HMAC-SHA256), POSTs them all on
// kept-alive `node:http` connections, and marks the deliveries succeeded and the jobs done in one
// statement; then claims again. No attempt rows, no retries, no leases renewed, no address checks.
// Started by bench/webhooks.ts with DATABASE_URL and WEBHOOK_SECRET (the endpoint's signing secret).
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import pg from 'pg';

const BATCH = 64;
const secret = process.env.WEBHOOK_SECRET!;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const agent = new Agent({ keepAlive: true, maxSockets: BATCH });

const CLAIM_SQL = `
  with picked as (
    select id from jobs
    where kind = 'webhook.deliver' and status = 'queued' and run_at <= now()
    order by run_at, id limit ${BATCH}
    for update skip locked
  ), job as (
    update jobs set status = 'running', attempts = jobs.attempts + 1, locked_by = 'floor',
      locked_until = now() + interval '30 seconds'
    from picked where jobs.id = picked.id
    returning jobs.id, (jobs.payload->>'deliveryId')::integer as delivery_id
  ), d as (
    update webhook_deliveries d set attempts = d.attempts + 1, locked_by = gen_random_uuid(),
      locked_until = now() + interval '30 seconds'
    from job where d.id = job.delivery_id and d.status = 'pending'
    returning d.id, d.locked_by, d.event_id, d.endpoint_id
  )
  select job.id as job_id, d.id, d.locked_by, e.id as event_id, e.type, e.created_at, w.url,
    w.id as endpoint_id, w.environment, w.events, w.enabled, w.created_at as endpoint_created_at
  from job join d on d.id = job.delivery_id
  join webhook_events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id`;

const DONE_SQL = `
  with d as (
    update webhook_deliveries set status = 'succeeded', completed_at = now(), locked_by = null,
      locked_until = null, last_status_code = 200
    where id = any($1::int[])
  )
  update jobs set status = 'done', finished_at = now(), locked_until = null where id = any($2::bigint[])`;

interface Row {
  job_id: string;
  id: number;
  locked_by: string;
  event_id: string;
  type: string;
  created_at: Date;
  url: string;
  endpoint_id: number;
  environment: string;
  events: string[];
  enabled: boolean;
  endpoint_created_at: Date;
}

function post(row: Row): Promise<number> {
  const body = JSON.stringify({
    id: row.event_id,
    type: row.type,
    created_at: row.created_at.toISOString(),
    data: {
      object: 'webhook_endpoint',
      id: row.endpoint_id,
      url: row.url,
      environment: row.environment,
      events: row.events,
      enabled: row.enabled,
      created_at: row.endpoint_created_at.toISOString(),
    },
  });
  const t = Math.floor(Date.now() / 1000);
  const sig = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  const url = new URL(row.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'X-Esign-Event': row.type,
          'X-Esign-Delivery': row.locked_by,
          'X-Esign-Signature': `t=${t},v1=${sig}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let wake: (() => void) | null = null;
let notified = 0;
const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
await listener.connect();
listener.on('notification', () => {
  notified++;
  wake?.();
});
await listener.query('listen esign_jobs');

let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
  wake?.();
});

while (!stopping) {
  const seen = notified;
  const { rows } = await pool.query<Row>(CLAIM_SQL);
  if (rows.length > 0) {
    await Promise.all(rows.map(post));
    await pool.query(DONE_SQL, [rows.map((r) => r.id), rows.map((r) => r.job_id)]);
  }
  if (rows.length < BATCH && seen === notified && !stopping) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 500);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });
  }
}
await listener.end();
await pool.end();
agent.destroy();
