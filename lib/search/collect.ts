// Reading candidates' stored texts and keeping what matches, grouped as search shows it: build-log
// matches by job, failure matches by test, bugs on their own. Texts are read a batch of runs at a
// time; a log is first tested as bytes (most candidates of a selective pattern do not match), and
// only a matching one is decoded to find its lines.
import RE2 from 're2';
import type { Budget } from '../budget';
import { matchRanges, type UserPattern } from '../patterns';
import type { Database } from '../store/db';
import { testNames } from '../store/names';
import { iso } from '../history/window';
import { matchLines, type MatchedLine } from './matchLines';
import { decompressLog } from './runText';

/** Runs shown per job or test, lines per file, at most. */
const RUNS_SHOWN = 20;
const LINES_SHOWN = 10;
const LINES_PER_FAILURE = 5;

export interface TestGroup {
  test: string;
  id: string;
  testMarks: [number, number][];
  /** failures (and flakes) of the test that matched */
  matches: number;
  runs: { job: string; buildId: string; url: string; started: string; outcome: string; excerpt: string; excerptMarks: [number, number][]; lines: MatchedLine[] }[];
}

export interface LogFileMatch {
  path: string;
  /** bytes of the file; `tailStart` where the stored (searched) tail begins in it (0: the whole file) */
  size: number;
  tailStart: number;
  matches: number;
  lines: MatchedLine[];
}

export interface JobGroup {
  job: string;
  /** runs of the job whose logs matched */
  matchingRuns: number;
  matches: number;
  runs: { buildId: string; url: string; started: string; state: string; files: LogFileMatch[] }[];
}

export interface BugMatch {
  tracker: string;
  id: string;
  url: string;
  summary: string;
  status: string;
  matches: number;
  lines: MatchedLine[];
}

export interface SearchGroups {
  /** runs with a match in their logs or failures */
  matchingRuns: number;
  /** tests with a matching failure (results holds the first `limit`) */
  tests: number;
  results: TestGroup[];
  /** jobs with a matching build log (jobs holds the first `limit`) */
  logJobs: number;
  jobs: JobGroup[];
  matchingBugs: number;
  bugs: BugMatch[];
}

type RunRow = { id: number; job_id: number; build_id: string; url: string; state: string; started: number };

const inList = (ids: number[]) => ids.map((id) => String(Math.trunc(id))).join(', ');

export class SearchCollector {
  private readonly tester: RE2;
  private readonly byTest = new Map<number, TestGroup>();
  private readonly byJob = new Map<number, JobGroup>();
  private readonly bugMatches: BugMatch[] = [];
  private matching = 0;

  constructor(
    private readonly db: Database,
    private readonly re: UserPattern,
    private readonly context: number,
    private readonly limit: number,
    private readonly jobName: Map<number, string>,
  ) {
    this.tester = new RE2(re.source, re.flags.replace('g', ''));
  }

  /** Reads and matches a batch of candidate runs, in order, until the budget is spent; says which matched. */
  async runs(batch: { id: number; started: number; logs: boolean; failures: boolean }[], budget: Budget) {
    const ids = batch.map((b) => b.id);
    const runRows = new Map((await this.db.all<RunRow>(`SELECT id, job_id, build_id, url, state, started FROM run WHERE id IN (${inList(ids)})`)).map((r) => [r.id, r]));
    const logIds = batch.filter((b) => b.logs).map((b) => b.id);
    const logs = logIds.length ? await this.db.all<{ run_id: number; path: string; body: Uint8Array; size: number; tail_start: number }>(`SELECT run_id, path, body, size, tail_start FROM run_log WHERE run_id IN (${inList(logIds)}) ORDER BY run_id, path`) : [];
    const failIds = batch.filter((b) => b.failures).map((b) => b.id);
    const failures = failIds.length ? await this.db.all<{ run_id: number; test_id: number; outcome: number; message: string }>(`SELECT run_id, test_id, outcome, message FROM test_outcome WHERE run_id IN (${inList(failIds)})`) : [];
    const names = await testNames(this.db, failures.map((f) => f.test_id));
    const logsOf = group(logs, (l) => l.run_id);
    const failuresOf = group(failures, (f) => f.run_id);
    const matched: { started: number; logs: boolean; failures: boolean }[] = [];
    let read = 0;
    for (const b of batch) {
      if (budget.spent()) break;
      read++;
      const run = runRows.get(b.id);
      if (!run) continue; // replaced since the candidates were read
      const logHit = b.logs && this.matchLogs(run, logsOf.get(b.id) ?? []);
      let failureHit = false;
      for (const f of b.failures ? (failuresOf.get(b.id) ?? []) : []) {
        const t = names.get(f.test_id);
        if (t && this.matchFailure(run, f, t)) failureHit = true;
      }
      if (logHit || failureHit) {
        this.matching++;
        matched.push({ started: run.started, logs: logHit, failures: failureHit });
      }
    }
    return { read, runs: matched };
  }

  private matchLogs(run: RunRow, files: { path: string; body: Uint8Array; size: number; tail_start: number }[]): boolean {
    const hits: LogFileMatch[] = [];
    let matches = 0;
    for (const f of files) {
      const bytes = decompressLog(f.body);
      if (!this.tester.test(bytes)) continue;
      const m = matchLines(this.re, bytes.toString('utf8'), this.context, LINES_SHOWN);
      if (!m.matches) continue;
      matches += m.matches;
      hits.push({ path: f.path, size: f.size, tailStart: f.tail_start, matches: m.matches, lines: m.lines });
    }
    if (!hits.length) return false;
    let g = this.byJob.get(run.job_id);
    if (!g) this.byJob.set(run.job_id, (g = { job: this.jobName.get(run.job_id) ?? '', matchingRuns: 0, matches: 0, runs: [] }));
    g.matchingRuns++;
    g.matches += matches;
    if (g.runs.length < RUNS_SHOWN) g.runs.push({ buildId: run.build_id, url: run.url, started: iso(run.started), state: run.state, files: hits });
    return true;
  }

  private matchFailure(run: RunRow, f: { test_id: number; outcome: number; message: string }, t: { name: string; hash: string }): boolean {
    this.re.lastIndex = 0;
    const m = this.re.exec(f.message);
    if (!m && !this.tester.test(t.name)) return false;
    let g = this.byTest.get(f.test_id);
    if (!g) this.byTest.set(f.test_id, (g = { test: t.name, id: t.hash, testMarks: matchRanges(this.re, t.name), matches: 0, runs: [] }));
    g.matches++;
    if (g.runs.length < RUNS_SHOWN) {
      const at = m ? m.index : 0;
      const excerpt = f.message.slice(Math.max(0, at - 200), at + 300);
      g.runs.push({
        job: this.jobName.get(run.job_id) ?? '', buildId: run.build_id, url: run.url, started: iso(run.started),
        outcome: f.outcome === 1 ? 'failed' : 'flaked', excerpt, excerptMarks: matchRanges(this.re, excerpt),
        lines: m ? matchLines(this.re, f.message, this.context, LINES_PER_FAILURE).lines : [],
      });
    }
    return true;
  }

  /** Reads and matches a batch of candidate bugs until the budget is spent; how many were read. */
  async bugs(pks: number[], budget: Budget): Promise<number> {
    const rows = await this.db.all<{ id: number; tracker: string; bug_id: string; url: string; summary: string; status: string; description: string; comments: string }>(
      `SELECT id, tracker, bug_id, url, summary, status, description, comments FROM bug WHERE id IN (${inList(pks)}) ORDER BY id`,
    );
    let read = 0;
    for (const b of rows) {
      if (budget.spent()) break;
      read++;
      const text = `${b.summary}\n${b.description}\n${b.comments}`;
      if (!this.tester.test(text)) continue;
      const m = matchLines(this.re, text, this.context, LINES_SHOWN);
      if (m.matches) this.bugMatches.push({ tracker: b.tracker, id: b.bug_id, url: b.url, summary: b.summary, status: b.status, matches: m.matches, lines: m.lines });
    }
    return read;
  }

  groups(): SearchGroups {
    const tests = [...this.byTest.values()].sort((a, b) => b.matches - a.matches || (a.test < b.test ? -1 : 1));
    const jobs = [...this.byJob.values()].sort((a, b) => b.matchingRuns - a.matchingRuns || (a.job < b.job ? -1 : 1));
    const bugs = [...this.bugMatches].sort((a, b) => b.matches - a.matches || (a.tracker + a.id < b.tracker + b.id ? -1 : 1));
    return {
      matchingRuns: this.matching, tests: tests.length, results: tests.slice(0, this.limit),
      logJobs: jobs.length, jobs: jobs.slice(0, this.limit), matchingBugs: bugs.length, bugs: bugs.slice(0, this.limit),
    };
  }
}

function group<T>(rows: T[], key: (r: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    let list = out.get(key(r));
    if (!list) out.set(key(r), (list = []));
    list.push(r);
  }
  return out;
}
