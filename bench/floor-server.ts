// The floor for `GET /api/v1/templates` (issue 16): a bare `node:http` + `pg` server doing only what
// the endpoint must do at least, the API key lookup and one list query, with the same pool size (10)
// as the service. Started by bench/api.ts with DATABASE_URL and PORT; prints `ready <port>`.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

const KEY_SQL = `select k.account_id, k.environment from api_keys k
  where k.key_hash = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`;
const LIST_SQL = `select id, name, external_id, roles, archived_at, created_at, updated_at from templates
  where account_id = $1 and environment = $2 and archived_at is null order by id desc limit 21`;

const server = createServer(async (req, res) => {
  try {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!req.url?.startsWith('/api/v1/templates') || !token) {
      res.writeHead(404).end();
      return;
    }
    const hash = createHash('sha256').update(token).digest('hex');
    const key = (await pool.query(KEY_SQL, [hash])).rows[0];
    if (!key) {
      res.writeHead(401).end();
      return;
    }
    const rows = (await pool.query(LIST_SQL, [key.account_id, key.environment])).rows;
    const page = rows.slice(0, 20);
    const body = JSON.stringify({
      object: 'list',
      data: page.map((r) => ({ object: 'template', ...r })),
      has_more: rows.length > 20,
      next_cursor: rows.length > 20 ? page.at(-1).id : null,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`ready ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
