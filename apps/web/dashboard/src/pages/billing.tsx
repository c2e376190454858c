import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { billingErrorMessage } from '../billing-errors.ts';
import { formatDateTime } from '../format.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { Badge, Button, EmptyState, ErrorNote, Loading, PageHeader, TextField, useToast } from '../ui.tsx';

function Balance() {
  const credits = useQuery(trpc.account.credits.queryOptions());
  const c = credits.data;
  if (credits.isPending) return <Loading />;
  if (!c) return <ErrorNote error={credits.error} />;
  return (
    <section className="card" aria-labelledby="balance">
      <h2 id="balance">Balance</h2>
      <p className="big-number">
        {c.unlimited ? 'Unlimited' : `${c.available} credit${c.available === 1 ? '' : 's'}`}
      </p>
      <p>{c.billing}</p>
      {!c.unlimited && c.overdraft_limit < 0 ? (
        <p className="hint">You may go down to {c.overdraft_limit} before sending is blocked.</p>
      ) : null}
      <p className={c.can_send ? 'notice notice-good' : 'notice notice-error'} role="status">
        {c.can_send ? 'You can send documents for signature.' : 'Sending is blocked until credits are added.'}
      </p>
    </section>
  );
}

const CountryInput = z.object({
  billing_country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'Enter a two-letter country code such as US or DE'),
});

/** A billing country is needed before buying; set it here (the same procedure as the Account page). */
function BillingCountry() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.sessions.profile.queryOptions());
  const form = useForm<z.input<typeof CountryInput>>({
    resolver: zodResolver(CountryInput),
    defaultValues: { billing_country: '' },
  });
  const save = useMutation(
    trpc.sessions.updateProfile.mutationOptions({
      onSuccess: async () => {
        toast('Billing country saved');
        await queryClient.invalidateQueries({ queryKey: trpc.sessions.profile.queryKey() });
      },
    }),
  );
  if (profile.isPending) return <Loading />;
  if (!profile.data) return <ErrorNote error={profile.error} />;
  if (profile.data.billing_country) {
    return (
      <p className="hint">
        Billing country: <strong>{profile.data.billing_country}</strong> (change it on your{' '}
        <Link to="/account">Account</Link> page).
      </p>
    );
  }
  return (
    <form
      className="card"
      aria-labelledby="country"
      noValidate
      onSubmit={form.handleSubmit((v) =>
        save.mutate({ billing_country: v.billing_country.trim().toUpperCase() }),
      )}
    >
      <h2 id="country">Billing country</h2>
      <p className="hint">Add the country you are billed in once, before your first purchase.</p>
      <ErrorNote error={save.error} />
      <div className="narrow">
        <TextField
          label="Billing country"
          placeholder="US"
          maxLength={2}
          autoComplete="country"
          required
          hint="Two-letter code, such as US, DE or FR."
          error={form.formState.errors.billing_country?.message}
          {...form.register('billing_country')}
        />
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save country
        </Button>
      </div>
    </form>
  );
}

function packIncludes(p: { unlimited: boolean; credits: number | null; price_per_credit: string | null }) {
  return p.unlimited
    ? 'Unlimited signed documents, for life'
    : `${p.credits} credits · ${p.price_per_credit} USD per credit`;
}

/** The packs for sale (cheapest first, as listed) and a Buy button each, which opens the checkout. */
function Packs() {
  const packs = useQuery(trpc.billing.listPacks.queryOptions({}));
  const [code, setCode] = useState('');
  const [leaving, setLeaving] = useState<number | null>(null);
  const codeId = useId();
  const buy = useMutation(
    trpc.billing.createCheckout.mutationOptions({
      onSuccess: (checkout, input) => {
        if (!checkout.checkout_url) return;
        setLeaving(input.credit_pack_id);
        window.location.assign(checkout.checkout_url);
      },
    }),
  );
  const busyPack = leaving ?? (buy.isPending ? buy.variables?.credit_pack_id : null);
  return (
    <section aria-labelledby="packs">
      <div className="section-head">
        <h2 id="packs">Buy credits</h2>
      </div>
      {packs.isPending ? <Loading /> : null}
      <ErrorNote error={packs.error} />
      {buy.error ? (
        <div className="notice notice-error" role="alert">
          {billingErrorMessage(buy.error)}
        </div>
      ) : null}
      {packs.data && packs.data.data.length === 0 ? (
        <EmptyState title="No credit packs are for sale right now">
          The operator of this server adds packs (esign pack create).
        </EmptyState>
      ) : null}
      {packs.data && packs.data.data.length > 0 ? (
        <>
          <div className="field narrow">
            <label htmlFor={codeId}>Discount code (optional)</label>
            <input
              id={codeId}
              value={code}
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${codeId}-note`}
              onChange={(e) => setCode(e.target.value)}
            />
            <p id={`${codeId}-note`} className="hint">
              Applies to the pack you buy next.
            </p>
          </div>
          <ul className="rows packs" aria-label="Credit packs">
            {packs.data.data.map((p) => (
              <li key={p.id} className="row">
                <div className="row-main">
                  <strong>{p.name}</strong> {p.unlimited ? <Badge tone="good">Lifetime deal</Badge> : null}
                  <div className="hint">{packIncludes(p)}</div>
                  {p.description ? <div className="hint">{p.description}</div> : null}
                </div>
                <div className="row-actions">
                  <span className="price">{p.price} USD</span>
                  <Button
                    variant="primary"
                    aria-label={`Buy ${p.name} for ${p.price} USD`}
                    busy={busyPack === p.id}
                    disabled={busyPack != null && busyPack !== p.id}
                    onClick={() => buy.mutate({ credit_pack_id: p.id, discount_code: code.trim() || null })}
                  >
                    Buy
                  </Button>
                </div>
              </li>
            ))}
          </ul>
          <p className="hint">
            Buy opens the payment page; you come back here when the payment is done. Credits are added once
            the payment is confirmed.
          </p>
        </>
      ) : null}
    </section>
  );
}

const CHECKOUT_STATUS: Record<string, { label: string; tone: string }> = {
  pending: { label: 'Waiting for payment', tone: 'info' },
  completed: { label: 'Paid', tone: 'good' },
  failed: { label: 'Failed or canceled', tone: 'bad' },
};

/** The signed-in admin's latest checkouts, newest first. */
function RecentCheckouts() {
  const recent = useQuery(trpc.billing.listRecentCheckouts.queryOptions({ limit: 10 }));
  return (
    <section aria-labelledby="recent">
      <div className="section-head">
        <h2 id="recent">Your recent checkouts</h2>
      </div>
      {recent.isPending ? <Loading /> : null}
      <ErrorNote error={recent.error} />
      {recent.data && recent.data.data.length === 0 ? (
        <p className="hint">You have not bought any credits yet.</p>
      ) : null}
      {recent.data && recent.data.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Pack</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {recent.data.data.map((c) => {
                const status = CHECKOUT_STATUS[c.status] ?? { label: c.status, tone: 'muted' };
                return (
                  <tr key={c.id}>
                    <td data-label="Started">{formatDateTime(c.created_at)}</td>
                    <td data-label="Pack">{c.credit_pack.name}</td>
                    <td data-label="Amount">
                      {c.amount} {c.currency}
                      {c.discount_code ? <span className="hint"> (code {c.discount_code})</span> : null}
                    </td>
                    <td data-label="Status">
                      <Badge tone={status.tone}>{status.label}</Badge>
                      {c.status === 'pending' && c.checkout_url ? (
                        <>
                          {' '}
                          <a href={c.checkout_url}>Continue to payment</a>
                        </>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The `purchase_url`: the balance (the same procedure as GET /credits) for everyone; for admins the
 * billing country, the credit packs with a Buy button (the same procedure as POST /checkouts, then
 * the browser goes to the checkout's `checkout_url`) and their recent checkouts.
 */
export function BillingPage({ session }: { session: Session }) {
  const admin = session.user.role === 'admin';
  return (
    <>
      <PageHeader title="Billing">
        Credits are shared by everyone in the account. A request uses one credit when it is first completed;
        test mode uses none.
      </PageHeader>
      <Balance />
      {admin ? (
        <>
          <BillingCountry />
          <Packs />
          <RecentCheckouts />
        </>
      ) : (
        <p className="notice" role="note">
          Admins of your account manage billing and buy credits. Ask one of them (see the Team page) if you
          need more.
        </p>
      )}
    </>
  );
}
