// The runs a verdict's evidence may name, as the verdict code reads them from the run table.
import { RULES } from './rules';

/** A run whose failures say nothing about one test: its install failed, or many tests failed with it. */
export const BROKEN_SQL = `(r.install_failed = 1 OR r.failed >= ${RULES.massFailureTests})`;

/** A run the evidence may name. */
export interface RunRow {
  id: number;
  jobId: number;
  buildId: string;
  url: string;
  started: number;
  payload: string;
  commit: string;
  testSetId: number | null;
  broken: boolean;
}

export const RUN_ROW = `r.id, r.job_id, r.build_id, r.url, r.started, r.payload, r.commit_sha, r.test_set_id, CASE WHEN ${BROKEN_SQL} THEN 1 ELSE 0 END`;
export const toRunRow = (r: unknown[]): RunRow => ({
  id: Number(r[0]), jobId: Number(r[1]), buildId: String(r[2]), url: String(r[3]), started: Number(r[4]), payload: String(r[5] ?? ''), commit: String(r[6] ?? ''),
  testSetId: r[7] === null ? null : Number(r[7]), broken: Number(r[8]) === 1,
});

