import { type Kysely, sql } from 'kysely';

// Frozen once released. Issue 42 item 1: after a hand-over (`signer.delegated`) the signer row
// names the new person, so an entry that took the signer's name from the row as it is now named the
// delegate for what the first person did. `audit_events.signer_who` holds the signer's name, email
// and phone as they were when the entry was written:
// - filled by a trigger from the signer row at insert time, so no writer can forget it (an entry
//   that sets it itself, as the hand-over does with the person handing over, keeps its own);
// - for entries already stored: the `from` of the signer's first hand-over at or after the entry
//   (the hand-over itself was done by its `from`), else the signer row as it is.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
alter table audit_events add column signer_who jsonb;

update audit_events e set signer_who = coalesce(
  (select d.data->'from' from audit_events d
    where d.signer_id = e.signer_id and d.type = 'signer.delegated' and d.id >= e.id
      and jsonb_typeof(d.data->'from') = 'object'
    order by d.id limit 1),
  (select jsonb_build_object('name', s.name, 'email', s.email, 'phone', s.phone)
     from signers s where s.id = e.signer_id))
where e.signer_id is not null;

create function audit_events_signer_who() returns trigger language plpgsql as $$
begin
  if new.signer_id is not null and new.signer_who is null then
    select jsonb_build_object('name', s.name, 'email', s.email, 'phone', s.phone)
      into new.signer_who from signers s where s.id = new.signer_id;
  end if;
  return new;
end $$;

create trigger audit_events_signer_who before insert on audit_events
  for each row execute function audit_events_signer_who();
`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
drop trigger audit_events_signer_who on audit_events;
drop function audit_events_signer_who();
alter table audit_events drop column signer_who;
`.execute(db);
}
