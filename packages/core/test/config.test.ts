import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.ts';

describe('configuration (README, Configuration)', () => {
  it('defaults: PORT 3000, PUBLIC_URL http://localhost:$PORT, DATA_DIR ./data, 300 requests per minute, webhook timings', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      PUBLIC_URL: 'http://localhost:3000',
      DATA_DIR: './data',
      MAIL_FROM: 'E-Signature <no-reply@localhost>',
      PAYMENT_PROVIDER: 'simulated',
      RATE_LIMIT_PER_MINUTE: 300,
      WEBHOOK_ALLOW_PRIVATE: false,
      WEBHOOK_RETRY_BASE_SECONDS: 60,
      WEBHOOK_TIMEOUT_SECONDS: 30,
      WORKER_CONCURRENCY: 4,
      LOG_LEVEL: 'info',
    });
    expect(parseConfig({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
  });

  it('every variable is validated; the error names each bad one', () => {
    let message = '';
    try {
      parseConfig({
        PORT: 'abc',
        RATE_LIMIT_PER_MINUTE: '-1',
        DATABASE_URL: 'mysql://x',
        WEBHOOK_ALLOW_PRIVATE: 'maybe',
        LOG_LEVEL: 'loud',
      });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    for (const name of [
      'PORT',
      'RATE_LIMIT_PER_MINUTE',
      'DATABASE_URL',
      'WEBHOOK_ALLOW_PRIVATE',
      'LOG_LEVEL',
    ])
      expect(message).toContain(name);
  });

  it('WORKER_CONCURRENCY is a positive integer (default 4); a non-number or zero stops the process naming it', () => {
    expect(parseConfig({ WORKER_CONCURRENCY: '8' }).WORKER_CONCURRENCY).toBe(8);
    for (const bad of ['many', '0', '-2', '1.5']) {
      expect(() => parseConfig({ WORKER_CONCURRENCY: bad })).toThrow(/WORKER_CONCURRENCY/);
    }
  });

  it('document pool (issue 9.6, 18): DOCUMENT_WORKERS unset by default, 60 s and 480 MB per document (each worker process under 500 MB); out-of-range values are named', () => {
    expect(parseConfig({})).toMatchObject({ DOCUMENT_TIMEOUT_SECONDS: 60, DOCUMENT_MEMORY_MB: 480 });
    expect(parseConfig({}).DOCUMENT_WORKERS).toBeUndefined();
    expect(parseConfig({ DOCUMENT_WORKERS: '3' }).DOCUMENT_WORKERS).toBe(3);
    let message = '';
    try {
      parseConfig({ DOCUMENT_WORKERS: '0', DOCUMENT_TIMEOUT_SECONDS: '601', DOCUMENT_MEMORY_MB: '32' });
    } catch (err) {
      message = (err as Error).message;
    }
    for (const name of ['DOCUMENT_WORKERS', 'DOCUMENT_TIMEOUT_SECONDS', 'DOCUMENT_MEMORY_MB'])
      expect(message).toContain(name);
  });

  it('issue 29 item 4: decompression limits are settings, 128 MB per stream and 2048 MB per document by default; 0 is refused by name', () => {
    expect(parseConfig({})).toMatchObject({ DOCUMENT_STREAM_INFLATED_MB: 128, DOCUMENT_INFLATED_MB: 2048 });
    expect(parseConfig({ DOCUMENT_STREAM_INFLATED_MB: '64', DOCUMENT_INFLATED_MB: '512' })).toMatchObject({
      DOCUMENT_STREAM_INFLATED_MB: 64,
      DOCUMENT_INFLATED_MB: 512,
    });
    expect(() => parseConfig({ DOCUMENT_STREAM_INFLATED_MB: '0' })).toThrow(/DOCUMENT_STREAM_INFLATED_MB/);
    expect(() => parseConfig({ DOCUMENT_INFLATED_MB: 'lots' })).toThrow(/DOCUMENT_INFLATED_MB/);
  });

  it('PAYMENT_PROVIDER=stripe requires STRIPE_SECRET_KEY', () => {
    expect(() => parseConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
  });

  it('a trailing slash on PUBLIC_URL is dropped so built links have one slash', () => {
    expect(parseConfig({ PUBLIC_URL: 'https://sign.example.com/' }).PUBLIC_URL).toBe(
      'https://sign.example.com',
    );
  });

  it('METRICS_PORT (issue 27.6): unset by default (no metrics port); a port from 1 to 65535 other than PORT; anything else stops the process naming it', () => {
    expect(parseConfig({}).METRICS_PORT).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    for (const bad of ['metrics', '0', '-1', '65536', '9464.5'])
      expect(() => parseConfig({ METRICS_PORT: bad }), bad).toThrow(/METRICS_PORT/);
    expect(() => parseConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT: must differ from PORT/,
    );
  });

  it('ESIGN_RESTART_COUNT (issue 27.6), set by the supervisor: 0 when absent, else a whole number', () => {
    expect(parseConfig({}).ESIGN_RESTART_COUNT).toBe(0);
    expect(parseConfig({ ESIGN_RESTART_COUNT: '3' }).ESIGN_RESTART_COUNT).toBe(3);
    for (const bad of ['-1', 'x', '1.5'])
      expect(() => parseConfig({ ESIGN_RESTART_COUNT: bad }), bad).toThrow(/ESIGN_RESTART_COUNT/);
  });

  it('issue 29 item 1: TRUST_PROXY unset trusts no forwarded header; a hop count or a list of addresses/CIDRs is taken; junk and `true` stop the process naming it', () => {
    expect(parseConfig({}).TRUST_PROXY).toBeUndefined();
    expect(parseConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(0);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.5' }).TRUST_PROXY).toEqual(['10.0.0.5']);
    expect(
      parseConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.1 ,fd00::/8,::1,loopback' }).TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', '192.168.1.1', 'fd00::/8', '::1', 'loopback']);
    for (const bad of [
      'true',
      'yes',
      '33',
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.300',
      'proxy.example',
      '10.0.0.1,',
      '10.0.0.0/8/1',
      '-1',
    ]) {
      expect(() => parseConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('issue 41 item 5: a database that does not answer is given up on after 10 s per statement and 5 s for a connection by default; other values in whole seconds, junk named', () => {
    expect(parseConfig({})).toMatchObject({
      DATABASE_STATEMENT_TIMEOUT_SECONDS: 10,
      DATABASE_ACQUIRE_TIMEOUT_SECONDS: 5,
    });
    expect(
      parseConfig({ DATABASE_STATEMENT_TIMEOUT_SECONDS: '60', DATABASE_ACQUIRE_TIMEOUT_SECONDS: '2' }),
    ).toMatchObject({ DATABASE_STATEMENT_TIMEOUT_SECONDS: 60, DATABASE_ACQUIRE_TIMEOUT_SECONDS: 2 });
    for (const name of ['DATABASE_STATEMENT_TIMEOUT_SECONDS', 'DATABASE_ACQUIRE_TIMEOUT_SECONDS'])
      for (const bad of ['0', '-1', 'soon', '1.5'])
        expect(() => parseConfig({ [name]: bad }), `${name}=${bad}`).toThrow(new RegExp(name));
  });
});
