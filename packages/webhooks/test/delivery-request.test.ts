import { describe, expect, it } from 'vitest';
import {
  buildDeliveryRequest,
  DEFAULT_SERVICE_NAME,
  DEFAULT_SUBSCRIBED_EVENT_TYPES,
  verifyWebhook,
  WEBHOOK_EVENT_TYPES,
  webhookHeaderNames,
} from '../src/index.ts';

const event = {
  id: 'evt_01J9ZQ',
  type: 'signer.signed',
  created_at: '2025-01-01T00:00:00.000Z',
  data: { object: 'signer', id: 12, status: 'signed' },
};
const base = { secret: 'whsec_test', event, deliveryId: 'dlv_1', nowSeconds: 1_700_000_000 };

describe('Events, Delivery: POST with a JSON body {id, type, created_at, data}', () => {
  it('serializes exactly the four envelope fields in order', () => {
    const { body } = buildDeliveryRequest({ ...base, event: { ...event, extra: 1 } as typeof event });
    expect(body).toBe(
      '{"id":"evt_01J9ZQ","type":"signer.signed","created_at":"2025-01-01T00:00:00.000Z","data":{"object":"signer","id":12,"status":"signed"}}',
    );
  });

  it('issue 31: data serialised once by the caller (dataJson) gives the same bytes and signature', () => {
    const odd = { ...event, id: 'evt_"quoted"\u2028', data: { s: 'é \n "x"', n: [1, null, { a: true }] } };
    const plain = buildDeliveryRequest({ ...base, event: odd });
    const given = buildDeliveryRequest({ ...base, event: odd, dataJson: JSON.stringify(odd.data) });
    expect(given.body).toBe(plain.body);
    expect(given.headers).toEqual(plain.headers);
    const none = buildDeliveryRequest({ ...base, event: { ...event, data: null }, dataJson: 'null' });
    expect(none.body).toBe(buildDeliveryRequest({ ...base, event: { ...event, data: undefined } }).body);
  });

  it('keeps data present as null when missing', () => {
    const { body } = buildDeliveryRequest({ ...base, event: { ...event, data: undefined } });
    expect(JSON.parse(body)).toHaveProperty('data', null);
  });
});

describe('Events, Delivery: headers X-Service-Event, X-Service-Delivery, X-Service-Signature, User-Agent', () => {
  it('uses Esign as the default service name', () => {
    expect(DEFAULT_SERVICE_NAME).toBe('Esign');
    const { headers, body } = buildDeliveryRequest(base);
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'Esign-Webhooks/1.0',
      'X-Esign-Event': 'signer.signed',
      'X-Esign-Delivery': 'dlv_1',
      'X-Esign-Signature': expect.stringMatching(/^t=1700000000,v1=[0-9a-f]{64}$/),
    });
    expect(verifyWebhook('whsec_test', headers['X-Esign-Signature'], body, 300, 1_700_000_000)).toBe(true);
  });

  it('takes the service name and user agent as parameters', () => {
    const { headers } = buildDeliveryRequest({ ...base, serviceName: 'Acme-Sign', userAgent: 'AcmeHooks/2' });
    expect(Object.keys(headers)).toEqual(
      expect.arrayContaining(['X-Acme-Sign-Event', 'X-Acme-Sign-Delivery', 'X-Acme-Sign-Signature']),
    );
    expect(headers['User-Agent']).toBe('AcmeHooks/2');
    expect(webhookHeaderNames('Acme')).toEqual({
      event: 'X-Acme-Event',
      delivery: 'X-Acme-Delivery',
      signature: 'X-Acme-Signature',
    });
  });

  it('refuses a service name that cannot be part of a header name', () => {
    expect(() => buildDeliveryRequest({ ...base, serviceName: 'My Service' })).toThrow(TypeError);
    expect(() => buildDeliveryRequest({ ...base, serviceName: 'x\r\nEvil' })).toThrow(TypeError);
    expect(() => buildDeliveryRequest({ ...base, serviceName: '' })).toThrow(TypeError);
  });

  it('signs with the attempt time, so a retry carries a fresh t', () => {
    const first = buildDeliveryRequest(base);
    const retry = buildDeliveryRequest({ ...base, deliveryId: 'dlv_2', nowSeconds: base.nowSeconds + 60 });
    expect(retry.body).toBe(first.body);
    expect(retry.headers['X-Esign-Signature']).toMatch(/^t=1700000060,/);
    expect(retry.headers['X-Esign-Delivery']).toBe('dlv_2');
  });
});

describe('Events, Delivery: custom headers configured on the endpoint are also sent', () => {
  it('sends valid custom headers', () => {
    const { headers } = buildDeliveryRequest({
      ...base,
      customHeaders: { Authorization: 'Bearer abc', 'X-Tenant': 't1' },
    });
    expect(headers.Authorization).toBe('Bearer abc');
    expect(headers['X-Tenant']).toBe('t1');
  });

  it('never lets a custom header replace the signature, event, framing or agent headers', () => {
    const { headers } = buildDeliveryRequest({
      ...base,
      customHeaders: {
        'x-esign-signature': 't=1,v1=00',
        'X-ESIGN-EVENT': 'template.created',
        'content-type': 'text/plain',
        'User-Agent': 'spoof',
        Host: 'internal',
        'Transfer-Encoding': 'chunked',
      },
    });
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(Object.keys(headers)).toHaveLength(5);
    expect(lower['x-esign-event']).toBe('signer.signed');
    expect(lower['content-type']).toBe('application/json');
    expect(lower['user-agent']).toBe('Esign-Webhooks/1.0');
    expect(lower['x-esign-signature']).toMatch(/^t=1700000000,v1=/);
  });

  it('drops header names and values that would break the request (header injection)', () => {
    const { headers } = buildDeliveryRequest({
      ...base,
      customHeaders: { 'X-Ok': 'fine', 'X-Evil': 'a\r\nX-Injected: 1', 'Bad Name': 'v', '': 'v' },
    });
    expect(headers['X-Ok']).toBe('fine');
    expect(Object.keys(headers)).not.toContain('X-Evil');
    expect(Object.keys(headers)).not.toContain('Bad Name');
  });
});

describe('Event types', () => {
  it('lists the eleven types of the spec and the two on by default', () => {
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(11);
    expect(WEBHOOK_EVENT_TYPES).toContain('webhook.test');
    expect(DEFAULT_SUBSCRIBED_EVENT_TYPES).toEqual(['signature_request.completed', 'signer.signed']);
  });
});
