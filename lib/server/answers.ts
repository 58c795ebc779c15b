// The answers the web server's pages and API routes serve, by name, each from its query parameters:
// the same lib function and parameters the CLI twin uses. lib/server/answerPool.ts runs them on answer
// threads (so a slow one never holds the thread that answers /api/health), each with a Budget.
import type { Budget } from '../budget';
import type { Config } from '../config';
import type { Database } from '../store/db';
import { causes, parseCausesQuery } from '../answers/causes';
import { hotlist, parseHotlistQuery } from '../answers/hotlist';
import { ingestLog, parseIngestLogQuery } from '../answers/ingestLog';
import { jobDetail, listJobs, parseJobsQuery } from '../answers/jobs';
import { parsePromotionQuery, promotionStatus } from '../answers/promotion';
import { runDetail } from '../answers/runDetail';
import { parseSearchQuery, search } from '../answers/search';
import { parseSignatureQuery, signatureDetail } from '../answers/signature';
import { getStats } from '../answers/stats';
import { parseTestQuery, testDetail } from '../answers/testDetail';
import { listBugs } from '../bugs/manage';
import { loadJobs } from '../history/jobs';

/** Query parameters; a route's path segments are given as `id`, `name`, `job`, `buildId` (they win over the query's). */
export type AnswerParams = Record<string, string | undefined>;

export interface AnswerContext {
  budget: Budget;
  /** the server's configuration (BUILDCOP_CONFIG), if any */
  config: Config | undefined;
}

const is = (v: string | undefined) => v === 'true' || v === '1';

export const ANSWERS = {
  hotlist: (db: Database, p: AnswerParams, c: AnswerContext) => hotlist(db, parseHotlistQuery(p), { ignoreTests: c.config?.ignoreTests, budget: c.budget }),
  test: (db: Database, p: AnswerParams) => testDetail(db, p.id ?? '', parseTestQuery(p)),
  jobs: (db: Database, p: AnswerParams) => listJobs(db, parseJobsQuery(p)),
  job: (db: Database, p: AnswerParams, c: AnswerContext) => jobDetail(db, p.name ?? '', parseJobsQuery(p), c.config),
  causes: (db: Database, p: AnswerParams, c: AnswerContext) => causes(db, parseCausesQuery(p), { ignoreTests: c.config?.ignoreTests }),
  signature: (db: Database, p: AnswerParams, c: AnswerContext) => signatureDetail(db, p.id ?? '', parseSignatureQuery(p), { ignoreTests: c.config?.ignoreTests }),
  /** the job names and variants (the hot list's filter choices) */
  jobNames: (db: Database) => loadJobs(db),
  run: (db: Database, p: AnswerParams, c: AnswerContext) => runDetail(db, p.job ?? '', p.buildId ?? '', c.config),
  search: (db: Database, p: AnswerParams, c: AnswerContext) => search(db, parseSearchQuery(p), { budget: c.budget }),
  bugs: (db: Database, p: AnswerParams) => listBugs(db, { linkedOnly: is(p.linked) }),
  promotion: (db: Database, p: AnswerParams, c: AnswerContext) => promotionStatus(db, c.config, parsePromotionQuery(p)),
  /** the home page's banner: blocked or not, without verdicts and bugs */
  promotionBanner: (db: Database, p: AnswerParams, c: AnswerContext) => promotionStatus(db, c.config, { ...parsePromotionQuery(p), verdicts: false }),
  ingestLog: (db: Database, p: AnswerParams) => ingestLog(db, parseIngestLogQuery(p)),
  stats: (db: Database) => getStats(db),
};

export type AnswerName = keyof typeof ANSWERS;
export type AnswerOf<N extends AnswerName> = Awaited<ReturnType<(typeof ANSWERS)[N]>>;

/** Answers that judge verdicts (lib/verdicts/judge.ts caches the lookback per thread): they go to the first idle thread, which keeps it warm. */
export const WINDOW_ANSWERS: ReadonlySet<AnswerName> = new Set<AnswerName>(['hotlist', 'causes', 'signature', 'test', 'job', 'promotion']);
