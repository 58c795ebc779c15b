// replay and world: serve or generate the bundled sample world.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { replayConfig } from '../replay/config';
import { ensureWorld } from '../replay/ensureWorld';
import { startReplayServer, type ReplayServer } from '../replay/server';
import { parse, parseDuration, UsageError } from './args';
import type { Command } from './command';

/** Writes a buildcop config whose every source is the replay server at `url` (with `extra` sections). */
export function writeReplayConfig(worldDir: string, url: string, file: string, extra: Partial<Config> = {}): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ ...replayConfig(worldDir, url), ...extra }, null, 2)}\n`);
}

/** --tests N: openshift-tests suites of N tests (the hand-written catalog's 193 at least) */
function parseTests(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new UsageError(`invalid --tests ${JSON.stringify(s)}: a whole number of tests, 1 to 1000000`);
  return n;
}

function parseEnd(s: string | undefined): Date | undefined {
  if (!s) return undefined;
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) throw new UsageError(`invalid --end ${JSON.stringify(s)}: use an ISO time`);
  return d;
}

/**
 * The replay server for the sample world. Deck lists its whole history (so one pass ingests it all)
 * unless `deckWindowHours` says less (then `ingest --since` backfills the rest from GCS).
 */
export async function startSampleReplay(opts: { world?: string; end?: Date; tests?: number; port?: number; compressFileTypes?: string[]; deckWindowHours?: number }): Promise<{ server: ReplayServer; dir: string }> {
  const dir = opts.world ? path.resolve(opts.world) : await ensureWorld({ end: opts.end, tests: opts.tests });
  const deckWindowHours = opts.deckWindowHours ?? 24 * 15;
  const server = await startReplayServer({ dir, port: opts.port ?? 0, deckWindowHours, gcsPageSize: 1000, recordRequests: false, compressFileTypes: opts.compressFileTypes });
  return { server, dir };
}

export const replayCommand: Command = {
  usage: `Usage: buildcop replay [--port P] [--world DIR | --end ISO [--tests N]] [--write-config FILE] [--compress-file-types LIST] [--deck-window 15d]

Serves a recorded CI world (generated into data/ on first use) as Deck, GCS, Bugzilla, Jira,
GitHub and the release controller would, and prints its URL. --write-config writes a
buildcop.config.json pointing every source at it. --compress-file-types (e.g. txt,log,json,tar,html,yaml,
as OpenShift CI's Prow uploads) stores the objects with those extensions gzip-encoded, as GCS holds them
there: listed at their compressed size, sent compressed to clients that accept gzip. --deck-window: Deck
lists the runs started that long before the world's end (default 15d, the whole world); GCS holds them all.
--tests: the world generated with openshift-tests suites of N tests (see buildcop world).`,
  async run(argv) {
    const { values } = parse(argv, { port: { type: 'string' }, world: { type: 'string' }, end: { type: 'string' }, tests: { type: 'string' }, 'write-config': { type: 'string' }, 'compress-file-types': { type: 'string' }, 'deck-window': { type: 'string' } } as const);
    const port = values.port ? Number(values.port) : 8099;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`invalid --port ${values.port}`);
    const types = values['compress-file-types']?.split(',').map((t) => t.trim().replace(/^\./, '')).filter(Boolean);
    const deckWindowHours = values['deck-window'] === undefined ? undefined : parseDuration(values['deck-window']) / 3_600_000;
    const { server, dir } = await startSampleReplay({ world: values.world, end: parseEnd(values.end), tests: parseTests(values.tests), port, compressFileTypes: types, deckWindowHours });
    if (values['write-config']) writeReplayConfig(dir, server.url, values['write-config']);
    process.stdout.write(`replay: serving ${dir} at ${server.url}${values['write-config'] ? ` (config: ${values['write-config']})` : ''}\n`);
    await new Promise(() => undefined); // until killed
    return 0;
  },
};

export const worldCommand: Command = {
  usage: `Usage: buildcop world [--out DIR] [--end ISO] [--tests N]   (default: data/world-<hour>-v<N>[-t<N>], end = this hour)

--tests N: openshift-tests suites of N tests (OpenShift's are about 3,000): tests generated in the
real names' style join the hand-written catalog, each failing in a small share of its runs. Without
it the world is the bundled one, byte for byte.`,
  async run(argv) {
    const { values } = parse(argv, { out: { type: 'string' }, end: { type: 'string' }, tests: { type: 'string' } } as const);
    const t0 = Date.now();
    const dir = await ensureWorld({ dir: values.out, end: parseEnd(values.end), tests: parseTests(values.tests) });
    process.stdout.write(`world: ${dir} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
    return 0;
  },
};
