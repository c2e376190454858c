import { formatMoney, formatUnitPrice } from '@esign/domain';

// Server-rendered HTML of the checkout page (`checkout_url` of the simulated provider, and where
// Stripe sends the buyer back). No script: a plain form that posts back to this origin. Buying
// starts on the dashboard's Billing page (`/billing`).

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.6rem}table{border-collapse:collapse;width:100%}td,th{padding:.5rem;border-bottom:1px solid #d0d7de;text-align:left}
.card{border:1px solid #d0d7de;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
.error{background:#ffebe9;border:1px solid #ff8182;padding:.75rem;border-radius:6px}
.ok{background:#dafbe1;border:1px solid #4ac26b;padding:.75rem;border-radius:6px}
.muted{color:#59636e}button{font:inherit;padding:.45rem 1rem;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1b1f24;border-color:#d0d7de}input{font:inherit;padding:.35rem .5rem}
label{display:block;margin:.5rem 0}.row{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#59636e}dd{margin:0}`;

export function layout(title: string, body: string, refreshSeconds?: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${
    refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ''
  }
<meta name="robots" content="noindex,nofollow"><link rel="icon" href="data:,">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const notice = (error: string | null, ok: string | null = null) =>
  `${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}${ok ? `<p class="ok" role="status">${esc(ok)}</p>` : ''}`;

interface PackView {
  id: number;
  name: string;
  description: string | null;
  credits: number | null;
  unlimited: boolean;
  price: string;
  currency: string;
  price_per_credit: string | null;
}

interface CheckoutView {
  id: string;
  status: 'pending' | 'completed' | 'failed';
  credit_pack: PackView;
  amount: string;
  currency: string;
  discount_code: string | null;
  checkout_url: string | null;
  completed_at: string | null;
  created_at: string;
}

// The page is English (`lang="en"`): its amounts are written the English way too.
const LOCALE = 'en';
const money = (amount: string, currency: string) => formatMoney(amount, currency, LOCALE);

function packLine(p: PackView): string {
  if (p.unlimited) return 'Unlimited signed documents, for life';
  if (p.price_per_credit === null) return `${p.credits} credits`;
  const unit = formatUnitPrice(p.price_per_credit, p.currency, LOCALE);
  return `${p.credits} credits (${unit.below ? 'less than ' : ''}${unit.price} each)`;
}

export interface CheckoutPageModel {
  checkout: CheckoutView;
  provider: 'simulated' | 'stripe';
  providerUrl: string | null;
  listPrice: string;
  token: string;
  error: string | null;
}

/** Where the buyer goes after paying or canceling: the dashboard's Billing page (`purchase_url`). */
const BACK = '<p><a href="/billing">Back to Billing</a></p>';

function outcome(m: CheckoutPageModel): string {
  const c = m.checkout;
  if (c.status === 'completed') {
    const what = c.credit_pack.unlimited
      ? 'The lifetime deal is active'
      : `${c.credit_pack.credits} credits were added`;
    return `<p class="ok" role="status">Payment received. ${esc(what)}. You can retry what you were doing.</p>${BACK}`;
  }
  if (c.status === 'failed') {
    return `<p class="error" role="status">This checkout failed or was canceled; nothing was charged. Start a new checkout to try again.</p>${BACK}`;
  }
  if (m.provider === 'simulated') {
    return `<form method="post" action="/checkout/${esc(c.id)}" class="row">
<input type="hidden" name="token" value="${esc(m.token)}">
<button type="submit" name="action" value="pay">Pay ${esc(money(c.amount, c.currency))}</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
</form>
<p class="muted">Simulated payment: no card is charged. This page plays the payment provider.</p>`;
  }
  return `<p role="status">Waiting for the payment to be confirmed…</p>${
    m.providerUrl ? `<p><a href="${esc(m.providerUrl)}">Continue to payment</a></p>` : ''
  }`;
}

export function checkoutPage(m: CheckoutPageModel): string {
  const c = m.checkout;
  const p = c.credit_pack;
  const discounted = c.discount_code !== null;
  return layout(
    'Checkout',
    `<h1>Checkout</h1>${notice(m.error)}
<section class="card" aria-label="Order">
<dl>
<dt>Pack</dt><dd>${esc(p.name)}${p.description ? ` — ${esc(p.description)}` : ''}</dd>
<dt>Includes</dt><dd>${esc(packLine(p))}</dd>
${discounted ? `<dt>List price</dt><dd>${esc(money(m.listPrice, c.currency))}</dd><dt>Discount code</dt><dd>${esc(c.discount_code)}</dd>` : ''}
<dt>Amount</dt><dd><strong data-testid="amount">${esc(money(c.amount, c.currency))}</strong></dd>
<dt>Status</dt><dd data-testid="status">${esc(c.status)}</dd>
</dl>
</section>
${outcome(m)}`,
    // Stripe confirms by webhook: look again shortly while the payment is pending.
    c.status === 'pending' && m.provider !== 'simulated' ? 5 : undefined,
  );
}

export function errorPage(status: number, message: string): string {
  return layout(
    'Checkout',
    `<h1>${status === 404 ? 'Not found' : 'Something went wrong'}</h1>${notice(message)}`,
  );
}
