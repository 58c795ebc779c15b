// The buildcop CLI: argument parsing and rendering only; every answer comes from lib/.
import { ConfigError } from '../config';
import { SourceUnavailableError } from '../sources/deck';
import { UsageError } from './args';
import { COMMANDS } from './commands';

const USAGE = `buildcop: the CI buildcop's dashboard, CLI and JSON API for Prow-based CI

Usage: buildcop <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(11)} ${c.summary}`)
  .join('\n')}

Common options: --config FILE (default ./buildcop.config.json or $BUILDCOP_CONFIG),
  --db URL (default $DATABASE_URL or file:./data/buildcop.db), --json, --help
Run "buildcop <command> --help" for a command's options.`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`buildcop: unknown command "${name}"\n\n${USAGE}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`buildcop ${name}: ${e.message}\n\n${command.usage}\n`);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof SourceUnavailableError || (e as { expose?: boolean }).expose) {
      process.stderr.write(`buildcop ${name}: ${(e as Error).message}\n`);
      return 1;
    }
    process.stderr.write(`buildcop ${name}: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}
