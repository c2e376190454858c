import { type Kysely, sql } from 'kysely';

// Frozen once released. Billing (the spec's Billing section) on the tables of the first migration:
// - checkouts live on one side of the account (live or test) and keep the payment page address;
// - a checkout adds credits at most once (one ledger row per checkout);
// - a discount code can never be used more often than max_uses, whatever the concurrency;
// - audit entries can name the checkout they record;
// - an operator can stop offering purchases to one client (an API key or an OAuth client): the
//   spec's assistant product that must not see the purchase tools, purchase_url or checkout_url.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table checkouts
  add column environment text not null default 'live' check (environment in ('live', 'test')),
  add column checkout_url text,
  add column updated_at timestamptz not null default now();
create index checkouts_user_idx on checkouts (user_id, environment, created_at desc);
create unique index checkouts_provider_ref_key on checkouts (provider, provider_ref) where provider_ref is not null;

alter table credit_ledger
  add constraint credit_ledger_checkout_fk foreign key (checkout_id) references checkouts(id);
create unique index credit_ledger_checkout_once on credit_ledger (checkout_id) where checkout_id is not null;

alter table credit_packs
  add constraint credit_packs_kind check ((unlimited and credits is null) or (not unlimited and credits > 0));
create index credit_packs_price_idx on credit_packs (price_cents, id) where active;

alter table discount_codes
  add constraint discount_codes_kind check ((percent_off is null) <> (amount_off_cents is null)),
  add constraint discount_codes_uses check (uses >= 0 and (max_uses is null or (max_uses > 0 and uses <= max_uses)));

alter table audit_events add column checkout_id uuid references checkouts(id);
create index audit_events_checkout_idx on audit_events (checkout_id, id) where checkout_id is not null;

alter table api_keys add column purchases_hidden boolean not null default false;
alter table oauth_clients add column purchases_hidden boolean not null default false;
`.execute(db);
}
