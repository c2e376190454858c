import { createServer } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.ts';

const METRICS_PATH = '/metrics';

/**
 * Serves `GET /metrics` (Prometheus text exposition) on a port of its own, apart from the
 * service's HTTP port, so the metrics are only where the operator opened METRICS_PORT. Resolves
 * once listening; a port that cannot be bound rejects (the process stops, naming it).
 */
export async function serveMetrics(
  metrics: Metrics,
  opts: { port: number; host: string; logger: Logger },
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH) {
      res
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`Not found: see ${METRICS_PATH}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    metrics.exposition().then(
      (body) =>
        res.writeHead(200, { 'content-type': metrics.contentType }).end(req.method === 'HEAD' ? '' : body),
      (err: unknown) => {
        // A collector failed in a way none of them should (each reports what it can): say so.
        opts.logger.error({ err }, 'metrics could not be collected');
        res
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end('metrics could not be collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    const refused = (err: Error) =>
      reject(new Error(`METRICS_PORT ${opts.port}: ${err.message}`, { cause: err }));
    server.once('error', refused);
    server.listen(opts.port, opts.host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  server.on('error', (err) => opts.logger.error({ err }, 'metrics server error'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  opts.logger.info({ port, path: METRICS_PATH }, 'metrics served');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
