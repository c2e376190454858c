import {
  consumeRecord,
  deleteClient,
  destroyRecord,
  findRecord,
  findRecordBy,
  findRegisteredClient,
  type OAuthPayload,
  revokeGrantRecords,
  saveClient,
  upsertRecord,
} from '@esign/core/oauth';
import type { Db } from '@esign/db';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';

/**
 * oidc-provider's storage contract over PostgreSQL (core's services/oauth store): every model in
 * `oauth_records` (ids hashed), registered clients in `oauth_clients`. Any process serves any step
 * of a flow. `now` is the process clock, injectable so tests can move past an expiry.
 */
export function postgresAdapter(db: Db, now: () => Date) {
  return class PostgresAdapter implements Adapter {
    private readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.model === 'Client') {
        await saveClient(db, id, { metadata: payload as OAuthPayload, metadataUrl: null, now: now() });
        return;
      }
      // A refresh token and its grant's new expiry commit together.
      await db.transaction().execute((tx) =>
        upsertRecord(tx, this.model, {
          id,
          payload: payload as OAuthPayload,
          expiresInSeconds: expiresIn,
          now: now(),
        }),
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return (await findRegisteredClient(db, id)) as AdapterPayload | undefined;
      return (await findRecord(db, this.model, { id, now: now() })) as AdapterPayload | undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return (await findRecordBy(db, this.model, { column: 'user_code', value: userCode, now: now() })) as
        | AdapterPayload
        | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return (await findRecordBy(db, this.model, { column: 'uid', value: uid, now: now() })) as
        | AdapterPayload
        | undefined;
    }

    /**
     * Two requests with the same code or refresh token at once: both read it unused, only one
     * consumes it; the other is refused (invalid_grant) instead of issuing a second set of tokens.
     */
    async consume(id: string): Promise<void> {
      if (!(await consumeRecord(db, this.model, { id, now: now() }))) {
        throw new errors.InvalidGrant(
          `${this.model === 'RefreshToken' ? 'refresh token' : 'grant'} already used`,
        );
      }
    }

    async destroy(id: string): Promise<void> {
      if (this.model === 'Client') await deleteClient(db, id);
      else await destroyRecord(db, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeGrantRecords(db, [grantId]);
    }
  };
}
