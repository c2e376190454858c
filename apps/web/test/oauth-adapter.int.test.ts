import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { errors } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAdapter } from '../src/oauth/adapter.ts';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.drop());

describe('oidc-provider storage adapter over PostgreSQL', () => {
  it('refresh rotation race: of two requests that both read a refresh token unused, the second consume is refused (invalid_grant), so tokens are issued once', async () => {
    const Adapter = postgresAdapter(tdb.db, () => new Date());
    const refresh = new Adapter('RefreshToken');
    await refresh.upsert('rt-race', { kind: 'RefreshToken', grantId: 'g-race' } as never, 3600);
    // Both requests have found it unconsumed before either consumed it.
    expect((await refresh.find('rt-race'))?.consumed).toBeUndefined();
    expect((await refresh.find('rt-race'))?.consumed).toBeUndefined();
    await refresh.consume('rt-race');
    await expect(refresh.consume('rt-race')).rejects.toBeInstanceOf(errors.InvalidGrant);
    expect((await refresh.find('rt-race'))?.consumed).toBeTypeOf('number');
  });

  it('records are found by the injected clock: past expiresIn they are gone; revokeByGrantId ends a grant and its tokens', async () => {
    let now = new Date('2031-01-01T00:00:00Z');
    const Adapter = postgresAdapter(tdb.db, () => now);
    const grants = new Adapter('Grant');
    const tokens = new Adapter('AccessToken');
    await grants.upsert('g-1', { kind: 'Grant', clientId: 'c' } as never, 7200);
    await tokens.upsert('at-1', { kind: 'AccessToken', grantId: 'g-1' } as never, 3600);
    now = new Date('2031-01-01T00:59:59Z');
    expect(await tokens.find('at-1')).toMatchObject({ jti: 'at-1', grantId: 'g-1' });
    now = new Date('2031-01-01T01:00:00Z');
    expect(await tokens.find('at-1')).toBeUndefined();
    await tokens.upsert('at-2', { kind: 'AccessToken', grantId: 'g-1' } as never, 3600);
    await tokens.revokeByGrantId('g-1');
    expect(await tokens.find('at-2')).toBeUndefined();
    expect(await grants.find('g-1')).toBeUndefined();
  });

  it('registered clients live in oauth_clients; a client known by a metadata document is never answered from there', async () => {
    const Adapter = postgresAdapter(tdb.db, () => new Date());
    const clients = new Adapter('Client');
    await clients.upsert(
      'dyn-1',
      { client_id: 'dyn-1', client_name: 'Dyn', redirect_uris: ['https://a.example/cb'] } as never,
      0,
    );
    expect(await clients.find('dyn-1')).toMatchObject({ client_name: 'Dyn' });
    await tdb.db
      .insertInto('oauth_clients')
      .values({
        id: 'https://c.example/doc.json',
        name: 'Doc',
        redirect_uris: '[]',
        metadata: '{}',
        metadata_url: 'https://c.example/doc.json',
      })
      .execute();
    expect(await clients.find('https://c.example/doc.json')).toBeUndefined();
  });
});
