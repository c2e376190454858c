// The floors of bench/api.ts (issue 16) and bench/sends.ts (issue 31): a bare `node:http` + `pg`
// server doing only what each endpoint must do at least, with the same pool size (10) as the
// service. Started with DATABASE_URL and PORT; answers once listening.
// - `GET /api/v1/templates`: the API key lookup and one list query.
// - `POST /api/v1/signature_requests` (`{ template_id, signers: [{ name, email }] }`): the API key
//   lookup, one template read (row, fields and documents as JSON), then one transaction inserting
//   the request with its snapshot, the signer (with a signing token) and an audit row: 7 statements.
//   No rule beyond "the template exists in this account side and has a field", no credits, no
//   event, no idempotency, no rate limit: a floor.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

const KEY_SQL = `select k.id, k.account_id, k.user_id, k.environment from api_keys k
  where k.key_hash = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`;
const LIST_SQL = `select id, name, external_id, roles, archived_at, created_at, updated_at from templates
  where account_id = $1 and environment = $2 and archived_at is null order by id desc limit 21`;
const TEMPLATE_SQL = `select t.id, t.name, t.roles,
    (select coalesce(jsonb_agg(to_jsonb(f) order by f.position), '[]') from template_fields f where f.template_id = t.id) as fields,
    (select coalesce(jsonb_agg(to_jsonb(d) order by d.position), '[]') from template_documents d where d.template_id = t.id) as documents
  from templates t where t.id = $1 and t.account_id = $2 and t.environment = $3 and t.archived_at is null`;
const REQUEST_SQL = `insert into signature_requests (account_id, environment, template_id, template_name, status,
    signing_order, source, api_key_id, send_email, require_email_otp, snapshot, created_at, updated_at)
  values ($1, $2, $3, $4, 'sent', 'sequential', 'api', $5, false, false, $6, now(), now()) returning id, status, created_at`;
const SIGNER_SQL = `insert into signers (signature_request_id, account_id, environment, position, role, name, email,
    status, token_nonce, token_hash, require_email_otp, invited_at, created_at, updated_at)
  values ($1, $2, $3, 0, $4, $5, $6, 'ready', $7, $8, false, now(), now(), now()) returning id, status`;
const AUDIT_SQL = `insert into audit_events (account_id, environment, signature_request_id, type, actor_type, actor_id, api_key_id, data)
  values ($1, $2, $3, 'request.sent', 'api_key', $4, $5, $6)`;

type Key = { id: number; account_id: number; user_id: number; environment: string };

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function listTemplates(key: Key, res: ServerResponse) {
  const rows = (await pool.query(LIST_SQL, [key.account_id, key.environment])).rows;
  const page = rows.slice(0, 20);
  const body = JSON.stringify({
    object: 'list',
    data: page.map((r) => ({ object: 'template', ...r })),
    has_more: rows.length > 20,
    next_cursor: rows.length > 20 ? page.at(-1).id : null,
  });
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
}

async function sendRequest(key: Key, req: IncomingMessage, res: ServerResponse) {
  const input = await readBody(req);
  const template = (await pool.query(TEMPLATE_SQL, [input.template_id, key.account_id, key.environment]))
    .rows[0];
  if (!template || template.fields.length === 0) {
    res.writeHead(404).end();
    return;
  }
  const signer = input.signers[0];
  const role = template.roles[0];
  const snapshot = {
    template: { id: template.id, name: template.name },
    roles: template.roles,
    documents: template.documents.map((d: any, index: number) => ({
      index,
      template_document_id: d.id,
      name: d.name,
      storage_key: d.storage_key,
      sha256: d.sha256,
    })),
    fields: template.fields.map((f: any) => ({
      id: f.id,
      name: f.name,
      type: f.type,
      role: f.role,
      areas: f.areas,
    })),
  };
  const nonce = randomBytes(24).toString('base64url');
  const hash = createHash('sha256').update(nonce).digest('hex');
  const client = await pool.connect();
  try {
    await client.query('begin');
    const request = (
      await client.query(REQUEST_SQL, [
        key.account_id,
        key.environment,
        template.id,
        template.name,
        key.id,
        snapshot,
      ])
    ).rows[0];
    const row = (
      await client.query(SIGNER_SQL, [
        request.id,
        key.account_id,
        key.environment,
        role,
        signer.name ?? null,
        signer.email ?? null,
        nonce,
        hash,
      ])
    ).rows[0];
    await client.query(AUDIT_SQL, [
      key.account_id,
      key.environment,
      request.id,
      String(key.user_id),
      key.id,
      { signers: 1 },
    ]);
    await client.query('commit');
    const body = JSON.stringify({
      object: 'signature_request',
      ...request,
      template: { id: template.id, name: template.name },
      signers: [{ object: 'signer', ...row, role, name: signer.name, email: signer.email }],
    });
    res.writeHead(201, { 'content-type': 'application/json' }).end(body);
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const server = createServer(async (req, res) => {
  try {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const hash = token && createHash('sha256').update(token).digest('hex');
    const key: Key | undefined = hash ? (await pool.query(KEY_SQL, [hash])).rows[0] : undefined;
    if (req.url === '/' && req.method === 'GET') {
      res.writeHead(200).end('ok');
      return;
    }
    if (!key) {
      res.writeHead(token ? 401 : 404).end();
      return;
    }
    if (req.method === 'GET' && req.url?.startsWith('/api/v1/templates'))
      return await listTemplates(key, res);
    if (req.method === 'POST' && req.url === '/api/v1/signature_requests')
      return await sendRequest(key, req, res);
    res.writeHead(404).end();
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`ready ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
