// Argument parsing shared by the commands: flags with values, booleans, positionals.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { durationMs } from '../config';

export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;

export const COMMON = {
  config: { type: 'string' },
  db: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export function parse<T extends Options>(argv: string[], options: T, allowPositionals = false) {
  try {
    const all = { ...COMMON, ...options } as typeof COMMON & T;
    return parseArgs({ args: argv, options: all, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** "5m", "90s", "1h", "2d" → milliseconds. */
export function parseDuration(s: string): number {
  const ms = durationMs(s);
  if (ms === undefined) throw new UsageError(`invalid duration ${JSON.stringify(s)} (use e.g. 90s, 5m, 1h)`);
  return ms;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The line a list ends with when it shows fewer than it has: "(100 of 184 tests; --limit 184 shows
 * them all)". Empty when everything is shown.
 */
export function shownOf(shown: number, total: number, what: string, more: string): string {
  return shown < total ? `(${shown} of ${total} ${what}; ${more})` : '';
}
