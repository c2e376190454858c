import { type Config, ConfigError, parseConfig } from './config.ts';
import { CONFIG_ERROR_EXIT_CODE } from './exit-codes.ts';

/** The configuration, or the message naming each bad variable and exit CONFIG_ERROR_EXIT_CODE. */
export function loadConfigOrExit(env: Record<string, string | undefined>): Config {
  try {
    return parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(CONFIG_ERROR_EXIT_CODE);
    }
    throw err;
  }
}
