// A cause's history over the lookback, for its own verdict by the same rules as a test's, over runs:
// per job and day, the runs that ran tests and those the cause took down (a run where its failures
// all passed on retry counts as flaked), from the rollups. A cause is what breaks runs, so none is
// set apart as broken: a mass failure that began with a payload on one release is that release's
// regression.
import type { Database } from '../store/db';
import { causeJobDays } from '../history/causeWindow';
import type { JudgedVerdict } from './judge';
import { bucketIn } from './lookback';
import { judge, type JobSeries, type Verdict } from './rules';
import { RUN_ROW, toRunRow, type RunRow } from './runRows';
import { lookbackContext, type LookbackContext } from './testHistory';
import { describeChange } from './verdict';
import { zeros } from '../history/series';

const cache = new Map<string, Map<number, JudgedVerdict>>();

/** The verdicts of the given signatures as causes, at `at`. */
export async function causeVerdictsAt(db: Database, at: number, signatureIds: number[]): Promise<Map<number, JudgedVerdict>> {
  const ctx = await lookbackContext(db, at);
  const key = `${db.url}|${at}|${ctx.version}`;
  let known = cache.get(key);
  if (!known) {
    if (cache.size >= 16) cache.delete(cache.keys().next().value!);
    cache.set(key, (known = new Map()));
  }
  const missing = signatureIds.filter((id) => !known!.has(id));
  if (missing.length) for (const [id, v] of await judgeCauses(ctx, missing)) known.set(id, v);
  const out = new Map<number, JudgedVerdict>();
  for (const id of signatureIds) {
    const v = known.get(id);
    if (v) out.set(id, v);
  }
  return out;
}

async function judgeCauses(ctx: LookbackContext, sigIds: number[]): Promise<Map<number, JudgedVerdict>> {
  const { db, lookback: lb } = ctx;
  const n = lb.buckets;
  // runs that ran tests, per job and day: the same denominators for every cause
  const denominators = new Map<number, number[]>();
  for (const c of ctx.cells) {
    if (c.setId <= 0) continue;
    let a = denominators.get(c.jobId);
    if (!a) denominators.set(c.jobId, (a = zeros(n)));
    a[bucketIn(lb, c.at)] += c.runs;
  }
  const perSig = new Map<number, Map<number, { failed: number[]; flaked: number[] }>>();
  const cell = (sig: number, job: number) => {
    let m = perSig.get(sig);
    if (!m) perSig.set(sig, (m = new Map()));
    let s = m.get(job);
    if (!s) m.set(job, (s = { failed: zeros(n), flaked: zeros(n) }));
    return s;
  };
  // per job and day from the rollup (whole days packed or kept; the day of `at` so far as that day less its rest)
  for (const [sig, job, start, runs, flaked] of await causeJobDays(db, sigIds, lb.from, lb.at)) {
    const s = cell(sig, job);
    s.failed[bucketIn(lb, start)] += runs;
    s.flaked[bucketIn(lb, start)] += flaked;
  }

  const out = new Map<number, JudgedVerdict>();
  for (const sig of sigIds) {
    const bySig = perSig.get(sig);
    if (!bySig) continue;
    // every job that ran tests, so the evidence also says where the cause never appeared
    const jobs: JobSeries[] = [];
    for (const [jobId, runs] of denominators) {
      const s = bySig.get(jobId) ?? { failed: zeros(n), flaked: zeros(n) };
      const info = ctx.jobs.get(jobId);
      jobs.push({ job: info?.name ?? String(jobId), release: info?.release, platform: info?.platform, upgrade: info?.upgrade ?? false, runs, ...s, latest: [] });
    }
    jobs.sort((x, y) => (x.job < y.job ? -1 : 1));
    const { needs, ...v } = judge({ test: `signature ${sig}`, lookback: lb, jobs, broken: { install: 0, mass: 0, failedTestsPerRun: [] }, sameConditionPairs: [] });
    if (needs?.changeAt !== undefined) await nameChange(ctx, v, needs, sig);
    out.set(sig, v);
  }
  return out;
}

/** A regression of a cause: its first run after the change, and the run of the same job before it. */
async function nameChange(ctx: LookbackContext, v: Omit<Verdict, 'needs'>, needs: NonNullable<Verdict['needs']>, sig: number): Promise<void> {
  const changed = new Set(needs.changedJobs ?? []);
  const after = (await ctx.db.rows(
    `SELECT ${RUN_ROW} FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.signature_id = ? AND o.outcome = 1 AND o.started >= ? AND o.started < ? ORDER BY o.started, o.run_id LIMIT 200`,
    [sig, needs.changeAt!, ctx.lookback.at],
  )).map(toRunRow);
  const first = after.find((r) => changed.has(ctx.jobs.get(r.jobId)?.name ?? '')) ?? after[0];
  if (!first) return;
  const prev = (await ctx.db.rows(`SELECT ${RUN_ROW} FROM run r WHERE r.job_id = ? AND r.started < ? AND r.test_set_id IS NOT NULL ORDER BY r.started DESC, r.id DESC LIMIT 1`, [first.jobId, first.started])).map(toRunRow)[0];
  const ref = (r: RunRow) => ({ job: ctx.jobs.get(r.jobId)?.name ?? '', buildId: r.buildId, url: r.url, started: r.started, payload: r.payload, commit: r.commit });
  Object.assign(v.evidence, describeChange(ref(first), prev && ref(prev)));
}
