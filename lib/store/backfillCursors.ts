// How far back the backfill has listed each job's GCS folders (see the backfill_cursor table), so a
// pass lists only what no pass has listed yet, and a pass killed half-way lists its range again.
import type { Sql } from './db';
import { readKv, writeKv } from './kv';

/** Every build of the job with an id made in [from, to) (Unix seconds) is stored, pending or Deck's. */
export interface Coverage {
  from: number;
  to: number;
}

export async function readCursors(db: Sql): Promise<Map<string, Coverage>> {
  const rows = await db.all<{ job: string; covered_from: number; covered_to: number }>('SELECT job, covered_from, covered_to FROM backfill_cursor');
  return new Map(rows.map((r) => [r.job, { from: Number(r.covered_from), to: Number(r.covered_to) }]));
}

/** Writes the jobs' coverage (replacing what was stored), in one transaction. */
export async function writeCursors(db: Sql, cursors: ReadonlyMap<string, Coverage>): Promise<void> {
  if (!cursors.size) return;
  await db.tx(async (tx) => {
    for (const [job, c] of cursors) {
      await tx.run(
        'INSERT INTO backfill_cursor (job, covered_from, covered_to) VALUES (?, ?, ?) ON CONFLICT (job) DO UPDATE SET covered_from = excluded.covered_from, covered_to = excluded.covered_to',
        [job, c.from, c.to],
      );
    }
  });
}

/**
 * Since when Deck's listings have covered every run, pass after pass: each completed pass's listing
 * reached back to the present of the one before (its `through`). `source` names the Prow and the job
 * filter it was for: jobs another filter takes were not ingested meanwhile.
 */
export interface DeckCoverage {
  source: string;
  from: number;
  through: number;
}

const DECK_COVERAGE_KEY = 'ingest:deck-coverage';
const BACKFILL_REACH_KEY = 'ingest:backfill-reach';

/**
 * Where the unbroken run of Deck listings that ends with this pass's began: where the last completed
 * pass's began, when that pass was for the same source and its present is within this listing
 * (`listedFrom` on); else this listing's start.
 */
export async function deckCoveredFrom(db: Sql, source: string, listedFrom: number): Promise<number> {
  const last = await readKv<DeckCoverage>(db, DECK_COVERAGE_KEY);
  if (last?.source === source && typeof last.from === 'number' && typeof last.through === 'number' && last.through >= listedFrom) return Math.min(last.from, listedFrom);
  return listedFrom;
}

/** Records a completed pass's coverage (see deckCoveredFrom). */
export async function recordDeckCoverage(db: Sql, coverage: DeckCoverage): Promise<void> {
  await writeKv(db, DECK_COVERAGE_KEY, coverage);
}

/**
 * How far back the job folders of GCS were last looked through for jobs to backfill (Unix seconds),
 * for this source: a backfill reaching further back looks again.
 */
export async function backfillReach(db: Sql, source: string): Promise<number | undefined> {
  const r = await readKv<{ source: string; from: number }>(db, BACKFILL_REACH_KEY);
  return r?.source === source && typeof r.from === 'number' ? r.from : undefined;
}

export async function recordBackfillReach(db: Sql, source: string, from: number): Promise<void> {
  await writeKv(db, BACKFILL_REACH_KEY, { source, from });
}
