import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext, type SecureContextOptions } from 'node:tls';

interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface LoopbackServer {
  port: number;
  /** `http://127.0.0.1:<port>` (or https). */
  origin: string;
  /** TCP connections accepted so far. */
  connections: number;
  requests: ReceivedRequest[];
  /** SNI server names seen in TLS ClientHellos (https only). */
  serverNames: string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A server on 127.0.0.1 only: the tests never contact anything but loopback. */
export async function startLoopbackServer(
  handler: Handler,
  tls?: SecureContextOptions,
): Promise<LoopbackServer> {
  const state = { connections: 0, requests: [] as ReceivedRequest[], serverNames: [] as string[] };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  };
  let server: Server;
  if (tls) {
    const context = createSecureContext(tls);
    server = createTlsServer(
      {
        ...tls,
        SNICallback: (servername, cb) => {
          state.serverNames.push(servername);
          cb(null, context);
        },
      },
      listener,
    );
  } else {
    server = createServer(listener);
  }
  server.on('connection', () => {
    state.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    serverNames: state.serverNames,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
