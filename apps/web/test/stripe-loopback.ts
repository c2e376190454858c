import { createServer, type Server } from 'node:http';

export interface RecordedStripeRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The form-encoded body the stripe library sent, decoded. */
  params: URLSearchParams;
}

/**
 * A loopback stand-in for api.stripe.com answering the Checkout Session calls the stripe library
 * makes (tests never reach Stripe). It records every request so tests can assert on what the
 * library sent. `failNext` makes the next call answer a Stripe API error.
 */
export class StripeLoopback {
  readonly requests: RecordedStripeRequest[] = [];
  failNext: { status: number; type: string; message: string } | null = null;
  private server: Server | null = null;
  private counter = 0;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://loopback');
        const params = new URLSearchParams(raw);
        this.requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, params });
        res.setHeader('content-type', 'application/json');
        res.setHeader('request-id', `req_${++this.counter}`);
        if (this.failNext) {
          const fail = this.failNext;
          this.failNext = null;
          res.statusCode = fail.status;
          res.end(JSON.stringify({ error: { type: fail.type, message: fail.message } }));
          return;
        }
        if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
          const id = `cs_test_loopback_${this.counter}`;
          res.end(
            JSON.stringify({
              id,
              object: 'checkout.session',
              mode: params.get('mode'),
              status: 'open',
              payment_status: 'unpaid',
              url: `https://checkout.stripe.com/c/pay/${id}`,
              amount_total: Number(params.get('line_items[0][price_data][unit_amount]')),
              currency: params.get('line_items[0][price_data][currency]'),
              client_reference_id: params.get('client_reference_id'),
              metadata: { checkout_id: params.get('metadata[checkout_id]') },
              success_url: params.get('success_url'),
              cancel_url: params.get('cancel_url'),
            }),
          );
          return;
        }
        res.statusCode = 404;
        res.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: `No route ${url.pathname}` } }),
        );
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    const addr = this.server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((ok) => (this.server ? this.server.close(() => ok()) : ok()));
  }
}
