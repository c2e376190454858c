import { parseArgs } from 'node:util';
import { CoreError, loadConfigOrExit, toCoreError } from '@esign/core';
import { migrateToLatest, openDatabase } from '@esign/db';
import { commands } from './registry.ts';

// `esign`: the operator command line (README, "esign commands"). One JSON object on stdout with --json.

// `--overdraft -3`: a negative number is the option's value, not a flag.
const argv = process.argv
  .slice(2)
  .filter((a) => a !== '--')
  .reduce<string[]>((acc, a) => {
    const prev = acc.at(-1);
    if (/^-\d+$/.test(a) && prev?.startsWith('--') && !prev.includes('='))
      acc[acc.length - 1] = `${prev}=${a}`;
    else acc.push(a);
    return acc;
  }, []);
const json = argv.includes('--json');
const words = argv.filter((a) => !a.startsWith('-')).slice(0, 2);
const name = commands[words.join(' ')] ? words.join(' ') : words[0] && commands[words[0]] ? words[0] : null;

function fail(error: CoreError): never {
  if (json)
    process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`);
  else process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
}

if (!name) {
  const usage = Object.values(commands)
    .map((c) => `  esign ${c.usage} [--json]`)
    .join('\n');
  if (argv.includes('--help') || argv.length === 0) {
    process.stdout.write(`Usage:\n${usage}\n`);
    process.exit(0);
  }
  fail(new CoreError('invalid_parameter', `Unknown command "${words.join(' ')}". Commands:\n${usage}`));
}

const command = commands[name]!;
let values: Record<string, string | boolean | string[] | undefined>;
try {
  const parsed = parseArgs({
    args: argv.slice(argv.indexOf(name.split(' ').at(-1)!) + 1),
    options: { ...command.options, json: { type: 'boolean' } },
    allowPositionals: false,
    strict: true,
  });
  values = parsed.values;
} catch (err) {
  fail(new CoreError('invalid_parameter', `${(err as Error).message}\nUsage: esign ${command.usage}`));
}

const config = loadConfigOrExit(process.env);
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: 2,
  applicationName: 'esign-cli',
});
try {
  if (name !== 'migrate') await migrateToLatest(database.db);
  const result = await command.run({ db: database.db, config, now: () => new Date() }, values);
  process.stdout.write(
    json
      ? `${JSON.stringify(result)}\n`
      : `${command.text ? command.text(result) : JSON.stringify(result, null, 2)}\n`,
  );
  await database.close();
} catch (err) {
  await database.close().catch(() => {});
  const core = toCoreError(err);
  if (core.code === 'internal_error') process.stderr.write(`${(err as Error).stack ?? err}\n`);
  fail(core);
}
