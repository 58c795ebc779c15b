// What ingest did and what it is waiting for: `buildcop ingest-log`, /api/ingest and the /ingest page.
// Its passes (with the warnings of sources that failed without failing the pass), the runs it keeps
// pending and why, and the files it could not parse. The pages' freshness line points here when the
// latest pass failed.
import type { PassSummary } from '../ingest/pass';
import type { Database } from '../store/db';
import { pendingOverview, type PendingWhy } from '../store/pending';
import { iso } from '../history/window';
import { InvalidQueryError } from '../errors';

/** Rows of the pending runs and of the parse errors listed at most (their totals are always given). */
export const INGEST_LOG_ROWS = 200;

export interface IngestLogQuery {
  /** passes listed, newest first */
  limit: number;
}

export function parseIngestLogQuery(p: Record<string, string | undefined>): IngestLogQuery {
  const limit = p.limit === undefined || p.limit === '' ? 20 : Number(p.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InvalidQueryError(`invalid limit ${JSON.stringify(p.limit)}: use a whole number from 1 to 1000`);
  return { limit };
}

/** A pass as recorded: the figures of its summary (see PassSummary), when it ran, how it ended. */
export interface IngestPassEntry
  extends Pick<PassSummary, 'seconds' | 'runsNew' | 'runsUpdated' | 'runsPending' | 'runsLost' | 'runsFailed' | 'runsNotStored' | 'runsBackfilled' | 'runsPruned' | 'testResults' | 'parseErrors' | 'downloadedBytes' | 'warnings'> {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  /** interrupted: recorded as running, and a later pass has started since (the process was killed) */
  status: 'running' | 'ok' | 'failed' | 'interrupted';
  /** why the pass failed */
  message: string;
}

export type { PendingWhy };

export interface PendingEntry {
  job: string;
  buildId: string;
  state: string;
  started: string;
  url: string;
  why: PendingWhy;
  attempts: number;
  lastError: string;
  firstSeen: string;
  lastListed: string | null;
  nextCheck: string | null;
}

export interface ParseErrorEntry {
  job: string;
  buildId: string;
  started: string;
  url: string;
  file: string;
  message: string;
}

export interface IngestLog {
  passes: IngestPassEntry[];
  pending: { total: number; running: number; retrying: number; lost: number; runs: PendingEntry[] };
  /** the latest recorded first (by the primary key: a systematic failure can leave hundreds of thousands) */
  parseErrors: { total: number; runs: number; errors: ParseErrorEntry[] };
}

type PassRow = {
  id: number; started_at: number; finished_at: number | null; status: string; message: string; seconds: number; runs_new: number; runs_updated: number;
  runs_pending: number; runs_lost: number; runs_failed: number; runs_not_stored: number; runs_backfilled: number; runs_pruned: number; test_results: number; parse_errors: number; downloaded_bytes: number; warnings: string;
};

/** How the pages and the CLI say that the latest pass warned: "reported a problem reading its sources". */
export function reportedProblems(warnings: number): string {
  return `reported ${warnings === 1 ? 'a problem' : `${warnings} problems`} reading its sources`;
}

/** A pass's stored warnings (a JSON array). */
export function passWarnings(json: string): string[] {
  try {
    const w: unknown = JSON.parse(json);
    return Array.isArray(w) ? w.map(String) : [];
  } catch {
    return [];
  }
}

function passEntry(r: PassRow, newestId: number): IngestPassEntry {
  const status = r.status === 'running' && Number(r.id) < newestId ? 'interrupted' : (r.status as IngestPassEntry['status']);
  return {
    id: Number(r.id), startedAt: iso(Number(r.started_at)), finishedAt: r.finished_at === null ? null : iso(Number(r.finished_at)), status, message: r.message,
    seconds: Number(r.seconds), runsNew: Number(r.runs_new), runsUpdated: Number(r.runs_updated), runsPending: Number(r.runs_pending), runsLost: Number(r.runs_lost),
    runsFailed: Number(r.runs_failed), runsNotStored: Number(r.runs_not_stored), runsBackfilled: Number(r.runs_backfilled), runsPruned: Number(r.runs_pruned), testResults: Number(r.test_results), parseErrors: Number(r.parse_errors), downloadedBytes: Number(r.downloaded_bytes), warnings: passWarnings(r.warnings),
  };
}

export async function ingestLog(db: Database, q: IngestLogQuery): Promise<IngestLog> {
  const [passes, pending, errors, errorCounts] = await Promise.all([
    db.all<PassRow>(
      `SELECT id, started_at, finished_at, status, message, seconds, runs_new, runs_updated, runs_pending, runs_lost, runs_failed, runs_not_stored, runs_backfilled, runs_pruned, test_results, parse_errors, downloaded_bytes, warnings
       FROM ingest_pass ORDER BY id DESC LIMIT ?`,
      [q.limit],
    ),
    pendingOverview(db, INGEST_LOG_ROWS),
    db.all<{ job: string; build_id: string; started: number; url: string; file: string; message: string }>(
      `SELECT j.name AS job, r.build_id, r.started, r.url, p.file, p.message FROM parse_error p JOIN run r ON r.id = p.run_id JOIN job j ON j.id = r.job_id
       ORDER BY p.id DESC LIMIT ?`,
      [INGEST_LOG_ROWS],
    ),
    db.get<{ errors: number; runs: number }>('SELECT COUNT(*) AS errors, COUNT(DISTINCT run_id) AS runs FROM parse_error'),
  ]);
  const newestId = passes.length ? Number(passes[0].id) : 0;
  return {
    passes: passes.map((r) => passEntry(r, newestId)),
    pending: {
      ...pending.counts,
      runs: pending.runs.map((p) => ({
        job: p.job, buildId: p.buildId, state: p.state, started: iso(p.started), url: p.url, why: p.why, attempts: p.attempts, lastError: p.lastError,
        firstSeen: iso(p.firstSeen), lastListed: p.lastListed ? iso(p.lastListed) : null, nextCheck: p.nextCheck ? iso(p.nextCheck) : null,
      })),
    },
    parseErrors: {
      total: Number(errorCounts?.errors ?? 0), runs: Number(errorCounts?.runs ?? 0),
      errors: errors.map((e) => ({ job: e.job, buildId: e.build_id, started: iso(Number(e.started)), url: e.url, file: e.file, message: e.message })),
    },
  };
}

