// The buildcop CLI: argument parsing and rendering only; every answer comes from lib/.
import { adminTokenProblem } from '../server/auth';
import { UsageError } from './args';
import { COMMANDS } from './commands';
import { ANSWER_POOL_SIZE, SERVER_POOL_SIZE, setPostgresPoolSize } from '../store/poolSize';
import { setDaysKept } from '../history/dayKeeping';

async function usage(): Promise<string> {
  const summaries = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(11)} ${c.summary}`);
  return `buildcop: the CI buildcop's dashboard, CLI and JSON API for Prow-based CI

Usage: buildcop <command> [options]

Commands:
${summaries.join('\n')}

Common options: --config FILE (default ./buildcop.config.json or $BUILDCOP_CONFIG),
  --db URL (default $DATABASE_URL or file:./data/buildcop.db), --json, --help
Run "buildcop <command> --help" for a command's options.`;
}

/** Errors that are the user's or the sources' (a message is enough): by name, not to load their modules. */
const EXPOSED_ERRORS = new Set(['ConfigError', 'SourceUnavailableError']);

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${await usage()}\n`);
    return name ? 0 : 2;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    process.stderr.write(`buildcop: unknown command "${name}"\n\n${await usage()}\n`);
    return 2;
  }
  const entry = COMMANDS[name];
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  // a deployment's environment, refused by every command as the server refuses it (demo starts one)
  const tokenProblem = wantsHelp ? undefined : adminTokenProblem();
  setPostgresPoolSize(entry.serverPool ? SERVER_POOL_SIZE : ANSWER_POOL_SIZE);
  setDaysKept(!!entry.serverPool);
  if (entry.reads && !wantsHelp && !tokenProblem) connectEarly(rest);
  const command = await entry.load();
  if (wantsHelp) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  if (tokenProblem) {
    process.stderr.write(`buildcop ${name}: ${tokenProblem}\n`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`buildcop ${name}: ${e.message}\n\n${command.usage}\n`);
      return 2;
    }
    if (EXPOSED_ERRORS.has((e as Error).name) || (e as { expose?: boolean }).expose) {
      process.stderr.write(`buildcop ${name}: ${(e as Error).message}\n`);
      return 1;
    }
    // a database that cannot be reached is said so, without a stack (its module is loaded by then)
    if ((await import('../store/db')).isDatabaseUnavailable(e)) {
      process.stderr.write(`buildcop ${name}: the database cannot be reached: ${(e as Error).message}\n`);
      return 1;
    }
    process.stderr.write(`buildcop ${name}: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

/**
 * A command that reads PostgreSQL has its connection opened (and the schema checked) while its code
 * loads, 50-70 ms of a call either way: the command's own openDatabase of the same URL takes this one.
 * A failure here is left for that call to meet again and report. SQLite opens in a few milliseconds,
 * and opening it early would make the default database file for a call that fails on its options.
 */
function connectEarly(args: string[]): void {
  const at = args.findIndex((a) => a === '--db' || a.startsWith('--db='));
  const explicit = at < 0 ? undefined : args[at] === '--db' ? args[at + 1] : args[at].slice('--db='.length);
  if (at >= 0 && !explicit) return;
  void import('../store/db')
    .then(({ databaseUrl, dialectOf, openDatabase }) => {
      if (dialectOf(databaseUrl(explicit)) === 'postgres') return openDatabase(explicit);
    })
    .catch(() => undefined);
}
