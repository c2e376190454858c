import pino, { type Logger } from 'pino';

/** Never logged: keys, tokens, passwords, secrets, cookies. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'headers.authorization',
  'authorization',
  'password',
  'token',
  'secret',
  'key',
  '*.password',
  '*.token',
  '*.secret',
  '*.key',
  '*.api_key',
  'res.headers["set-cookie"]',
];

export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  const options = { name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
