import { formatMoney, formatUnitPrice } from '@esign/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { billingErrorMessage } from '../../billing-errors.ts';
import { msg, t } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';
import { trpc } from '../../trpc.ts';
import { Badge, Button, EmptyState, ErrorNote, Loading } from '../../ui.tsx';

function packIncludes(p: {
  unlimited: boolean;
  credits: number | null;
  price_per_credit: string | null;
  currency: string;
}) {
  if (p.unlimited) return msg('billing.pack.unlimited');
  // The price per credit in the reader's format, to the cent (issue 42: not "0.392 USD").
  const unit = formatUnitPrice(p.price_per_credit ?? 0, p.currency);
  return t('billing.pack.credits', {
    credits: p.credits,
    price: unit.price,
    below: unit.below ? 'yes' : 'no',
  });
}

/** The optional discount code, applied to the next pack bought. */
function DiscountCode({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const codeId = useId();
  return (
    <div className="field narrow">
      <label htmlFor={codeId}>{msg('billing.packs.discount_code')}</label>
      <input
        id={codeId}
        value={value}
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${codeId}-note`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${codeId}-note`} className="hint">
        {msg('billing.packs.discount_hint')}
      </p>
    </div>
  );
}

type Pack = Outputs['billing']['listPacks']['data'][number];

/** A pack: what it includes, its price and its Buy button. */
function PackRow({
  pack: p,
  busy,
  disabled,
  onBuy,
}: {
  pack: Pack;
  busy: boolean;
  disabled: boolean;
  onBuy: () => void;
}) {
  return (
    <li className="row">
      <div className="row-main">
        <strong>{p.name}</strong>{' '}
        {p.unlimited ? <Badge tone="good">{msg('billing.pack.lifetime_badge')}</Badge> : null}
        <div className="hint">{packIncludes(p)}</div>
        {p.description ? <div className="hint">{p.description}</div> : null}
      </div>
      <div className="row-actions">
        <span className="price">{formatMoney(p.price, p.currency)}</span>
        <Button
          variant="primary"
          aria-label={t('billing.pack.buy_label', { name: p.name, price: formatMoney(p.price, p.currency) })}
          busy={busy}
          disabled={disabled}
          onClick={onBuy}
        >
          {msg('billing.pack.buy')}
        </Button>
      </div>
    </li>
  );
}

/** The packs for sale (cheapest first, as listed) and a Buy button each, which opens the checkout. */
export function Packs() {
  const packs = useQuery(trpc.billing.listPacks.queryOptions({}));
  const [code, setCode] = useState('');
  const [leaving, setLeaving] = useState<number | null>(null);
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
        <h2 id="packs">{msg('billing.packs.title')}</h2>
      </div>
      {packs.isPending ? <Loading /> : null}
      <ErrorNote error={packs.error} />
      {buy.error ? (
        <div className="notice notice-error" role="alert">
          {billingErrorMessage(buy.error)}
        </div>
      ) : null}
      {packs.data && packs.data.data.length === 0 ? (
        <EmptyState title={msg('billing.packs.empty_title')}>{msg('billing.packs.empty')}</EmptyState>
      ) : null}
      {packs.data && packs.data.data.length > 0 ? (
        <>
          <DiscountCode value={code} onChange={setCode} />
          <ul className="rows packs" aria-label={msg('billing.packs.list_label')}>
            {packs.data.data.map((p) => (
              <PackRow
                key={p.id}
                pack={p}
                busy={busyPack === p.id}
                disabled={busyPack != null && busyPack !== p.id}
                onBuy={() => buy.mutate({ credit_pack_id: p.id, discount_code: code.trim() || null })}
              />
            ))}
          </ul>
          <p className="hint">{msg('billing.packs.how_buying_works')}</p>
        </>
      ) : null}
    </section>
  );
}
