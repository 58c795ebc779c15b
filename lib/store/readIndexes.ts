// What the ingester keeps for the answers to read after each pass, beside the rollups it writes in
// the pass: the test sets written since, indexed (testSetBlocks.ts), then the days over, packed
// (dayPacks.ts). The ingester, the demo and the benchmarks that stand in for it update them here, so
// none leaves one out. Neither fails a pass: each reports its errors in its summary.
import { formatPackSummary, packDays, type PackSummary } from './dayPacks';
import type { Database } from './db';
import { formatSetIndexSummary, indexTestSets, type SetIndexSummary } from './testSetBlocks';

export interface ReadIndexSummaries {
  testSetIndex: SetIndexSummary;
  dayPacks: PackSummary;
}

/** Updates both; `packs`: packDays's options (what time it is, how long packing may take). */
export async function updateReadIndexes(db: Database, packs: Parameters<typeof packDays>[1] = {}): Promise<ReadIndexSummaries> {
  const testSetIndex = await indexTestSets(db);
  return { testSetIndex, dayPacks: await packDays(db, packs) };
}

/** Their summary lines; with `errorsOnly`, only those of an update that had errors. */
export function formatReadIndexes(s: ReadIndexSummaries, errorsOnly = false): string[] {
  const lines: [{ errors: string[] }, string][] = [
    [s.testSetIndex, formatSetIndexSummary(s.testSetIndex)],
    [s.dayPacks, formatPackSummary(s.dayPacks)],
  ];
  return lines.filter(([summary]) => !errorsOnly || summary.errors.length > 0).map(([, line]) => line);
}
