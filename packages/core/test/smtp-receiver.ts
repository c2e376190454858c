import { SMTPServer } from 'smtp-server';

/** One message as the receiver got it: envelope sender, recipients and the raw MIME text. */
interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Answers the next `n` messages with 451 (try again later) instead of taking them. */
  failNext(n: number): void;
  /** Stops listening: connections to its port are refused (the server is down) until `up()`. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (no TLS, no auth) that keeps what it receives. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  let failing = 0;
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (c) => (raw += c));
        stream.on('end', () => {
          if (failing > 0) {
            failing--;
            return done(new Error('451 try again later'));
          }
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          done();
        });
      },
    });
  let smtp: SMTPServer | null = create();
  const listening = smtp;
  await new Promise<void>((ok) => listening.listen(0, '127.0.0.1', () => ok()));
  const port = (listening.server.address() as { port: number }).port;
  const stop = async () => {
    const current = smtp;
    smtp = null;
    if (current) await new Promise<void>((ok) => current.close(() => ok()));
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext: (n) => {
      failing = n;
    },
    down: stop,
    up: async () => {
      if (smtp) return;
      const next = create();
      await new Promise<void>((ok, fail) => {
        next.server.once('error', fail);
        next.listen(port, '127.0.0.1', () => ok());
      });
      smtp = next;
    },
    close: stop,
  };
}
