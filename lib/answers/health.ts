// Is the dashboard's data fresh? `buildcop health`, /api/health and the home page's stale warning.
import type { Database } from '../store/db';
import { getStats } from './stats';

/** Data older than this is stale: ingest normally runs every few minutes. */
export const STALE_AFTER_SECONDS = 3600;

/**
 * degraded: the latest pass could not store every run it read (a full disk, say); it says so
 * whatever the age of the data, as the cause to fix (ageSeconds tells the age)
 */
export type HealthStatus = 'ok' | 'degraded' | 'stale' | 'never-ingested' | 'unavailable';

export interface Health {
  status: HealthStatus;
  lastIngestAt: string | null;
  lastIngestStatus: string | null;
  /** problems the latest pass reported reading its sources (see the ingest log); they do not make the data stale */
  lastIngestWarnings: number;
  /** runs the database refused to store in the latest pass, which then failed (see the ingest log) */
  lastIngestRunsNotStored: number;
  /** seconds since the last successful ingest pass finished */
  ageSeconds: number | null;
  staleAfterSeconds: number;
  database: { reachable: boolean; dialect?: string; error?: string };
  counts: { runs: number; pendingRuns: number; jobs: number; tests: number; signatures: number } | null;
}

/** How old the data is: the one definition of "stale", for the health check and the pages. */
export function freshness(lastIngestAt: string | null, nowMs = Date.now()): { status: 'ok' | 'stale' | 'never-ingested'; ageSeconds: number | null } {
  if (!lastIngestAt) return { status: 'never-ingested', ageSeconds: null };
  const ageSeconds = Math.max(0, Math.round((nowMs - Date.parse(lastIngestAt)) / 1000));
  return { status: ageSeconds > STALE_AFTER_SECONDS ? 'stale' : 'ok', ageSeconds };
}

/** The health of the data; `openDb` errors make status "unavailable" rather than throwing. */
export async function health(openDb: () => Promise<Database>, nowMs = Date.now()): Promise<Health> {
  let db: Database;
  let stats;
  try {
    db = await openDb();
    stats = await getStats(db);
  } catch (e) {
    return {
      status: 'unavailable', lastIngestAt: null, lastIngestStatus: null, lastIngestWarnings: 0, lastIngestRunsNotStored: 0, ageSeconds: null, staleAfterSeconds: STALE_AFTER_SECONDS,
      database: { reachable: false, error: (e as Error).message }, counts: null,
    };
  }
  const { status, ageSeconds } = freshness(stats.lastIngestAt, nowMs);
  return {
    status: stats.lastIngestRunsNotStored > 0 ? 'degraded' : status,
    lastIngestAt: stats.lastIngestAt,
    lastIngestStatus: stats.lastIngestStatus,
    lastIngestWarnings: stats.lastIngestWarnings,
    lastIngestRunsNotStored: stats.lastIngestRunsNotStored,
    ageSeconds,
    staleAfterSeconds: STALE_AFTER_SECONDS,
    database: { reachable: true, dialect: db.dialect },
    counts: { runs: stats.runs, pendingRuns: stats.pendingRuns, jobs: stats.jobs, tests: stats.tests, signatures: stats.signatures },
  };
}

/** HTTP status for /api/health: 503 only when the database cannot be read. */
export function healthHttpStatus(h: Health): number {
  return h.status === 'unavailable' ? 503 : 200;
}
