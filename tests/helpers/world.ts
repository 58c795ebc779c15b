// The bundled sample world for integration tests: generated once (cached under data/), served by
// the replay server, with its truth.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateConfig, type Config } from '../../lib/config';
import { ensureWorld, TEST_WORLD_END } from '../../lib/replay/ensureWorld';
import { startReplayServer, type ReplayServer, type ReplayServerOptions } from '../../lib/replay/server';

export { TEST_WORLD_END };
export const END_ISO = TEST_WORLD_END.toISOString();

export interface PeriodStats {
  runs: number;
  failedRuns: number;
  flakedRuns: number;
  jobs: string[];
}

export interface Truth {
  runs: { finished: number; byState: Record<string, number>; pending: number; pendingRuns: { job: string; buildId: string }[] };
  tests: number;
  testResults: { total: number; passed: number; failed: number; flaked: number; skipped: number };
  perTest: Record<string, { window: PeriodStats; previous: PeriodStats }>;
  scenarios: Record<string, any>;
  specialRuns: Record<string, any>;
  kubeletRaceSignature: { test: string; occurrences: number; windowOccurrences: number };
  tlsSignature: { tests: string[]; occurrences: number };
  bugs: any;
  promotion: any;
  releaseStreams: any;
}

export async function sampleWorld(): Promise<{ dir: string; truth: Truth }> {
  const dir = await ensureWorld({ end: TEST_WORLD_END });
  return { dir, truth: JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Truth };
}

/** Deck lists the whole 14 days (so one pass ingests all of it) unless told otherwise. */
export async function replay(dir: string, opts: Partial<ReplayServerOptions> = {}): Promise<ReplayServer> {
  return startReplayServer({ dir, deckWindowHours: 24 * 15, ...opts });
}

export function configFor(dir: string, url: string, extra: Record<string, unknown> = {}): Config {
  const template = fs.readFileSync(path.join(dir, 'buildcop.config.json.template'), 'utf8').replaceAll('http://REPLAY', url);
  // fast retries in tests; the backoff itself is what is being exercised, not its length
  return validateConfig({ ...JSON.parse(template), ...extra });
}

export function writeConfig(config: Config): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-config-')), 'buildcop.config.json');
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}
