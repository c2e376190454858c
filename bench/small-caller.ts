// The concurrent small caller of bench/large-documents.ts, in its own thread: another client of
// the service, whose timings the bench's own work (parsing a 5,000-page signing.open answer,
// base64-encoding a sealed document to post it) cannot delay. Measured in the main thread, a
// 1.2 MB JSON.parse in the bench counted as the server's latency.
//
// Messages in: { cmd: 'idle', count } (that many calls, one after the other), { cmd: 'start' }
// (calls until 'stop'), { cmd: 'stop' }. Messages out: { calls } (each call's start and end, in ms
// of the process's clock, `performance.timeOrigin + performance.now()`, which every thread of the
// process shares) or { error }.
import { parentPort, workerData } from 'node:worker_threads';

const { base, key, templateId } = workerData as { base: string; key: string; templateId: number };
let n = 0;
let running: Promise<Call[]> | null = null;
let stop = false;

/** POST /signature_requests of the 1-page template with one signer: the small call. */
export interface Call {
  start: number;
  end: number;
}

const now = () => performance.timeOrigin + performance.now();

async function once(): Promise<Call> {
  const i = n++;
  const start = now();
  const res = await fetch(`${base}/api/v1/signature_requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      template_id: templateId,
      signers: [{ role: 'Signer', name: `Signer ${i}`, email: `signer${i}@example.com` }],
    }),
  });
  const text = await res.text();
  const end = now();
  if (res.status >= 300) throw new Error(`POST signature_requests: ${res.status} ${text.slice(0, 300)}`);
  return { start, end };
}

async function loop(count: number): Promise<Call[]> {
  const calls: Call[] = [];
  while (!stop && calls.length < count) calls.push(await once());
  return calls;
}

const reply = (p: Promise<Call[]>): void => {
  p.then(
    (calls) => parentPort!.postMessage({ calls }),
    (err: Error) => parentPort!.postMessage({ error: String(err.stack ?? err) }),
  );
};

parentPort!.on('message', (msg: { cmd: string; count?: number }) => {
  if (msg.cmd === 'idle') {
    stop = false;
    reply(loop(msg.count ?? 15));
  } else if (msg.cmd === 'start') {
    stop = false;
    running = loop(Number.POSITIVE_INFINITY);
  } else if (msg.cmd === 'stop') {
    stop = true;
    if (running) reply(running);
    running = null;
  }
});
