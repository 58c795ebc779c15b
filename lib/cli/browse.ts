// jobs, job, run, search, health, ingest-log: the CLI twins of the dashboard's JSON API (same lib functions, same
// parameters; --json prints exactly what the API returns).
import { health } from '../answers/health';
import { ingestLog, parseIngestLogQuery, reportedProblems } from '../answers/ingestLog';
import { jobDetail, listJobs, parseJobsQuery, type JobDetail } from '../answers/jobs';
import { runDetail } from '../answers/runDetail';
import { loadConfigIfPresent } from '../config';
import { parseSearchQuery, search, type SearchResult } from '../answers/search';
import type { MatchedLine } from '../search/matchLines';
import { openDatabase } from '../store/db';
import { parse, printJson, shownOf, UsageError } from './args';
import type { Command } from './command';

const out = (s: string) => process.stdout.write(`${s}\n`);
const pct = (r: number | null) => (r === null ? '   n/a' : `${(r * 100).toFixed(1).padStart(5)}%`);
const WINDOW = { window: { type: 'string' }, at: { type: 'string' } } as const;

export const jobsCommand: Command = {
  usage: 'Usage: buildcop jobs [--window 24h|3d|7d|14d|30d|90d] [--at ISO] [--json]',
  async run(argv) {
    const { values: v } = parse(argv, WINDOW);
    const result = await listJobs(await openDatabase(v.db), parseJobsQuery({ window: v.window, at: v.at }));
    if (v.json) printJson(result);
    else {
      out(`Jobs ${result.window} ${result.from} .. ${result.to}`);
      for (const j of result.jobs) out(`${pct(j.passRate)} ${String(j.runs).padStart(5)} runs  ${j.name}${j.lastRun ? `  (latest ${j.lastRun.state} ${j.lastRun.started})` : ''}`);
    }
    return 0;
  },
};

export const jobCommand: Command = {
  usage: 'Usage: buildcop job NAME [--window 7d] [--at ISO] [--json]',
  async run(argv) {
    const { values: v, positionals } = parse(argv, WINDOW, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one job name');
    const j = await jobDetail(await openDatabase(v.db), positionals[0], parseJobsQuery({ window: v.window, at: v.at }), loadConfigIfPresent(v.config));
    if (v.json) printJson(j);
    else {
      out(`${j.name} (${j.type}): pass rate ${pct(j.passRate).trim()} over ${j.runsCount} runs, ${j.from} .. ${j.to}`);
      for (const d of j.daily) out(`  ${d.day} ${pct(d.passRate)} of ${d.runs} runs`);
      out('Most failing tests:');
      for (const t of j.topTests.slice(0, 10)) out(`  ${String(t.failedRuns).padStart(4)} failed ${String(t.flakedRuns).padStart(3)} flaked  ${t.classification.padEnd(10)} ${t.test}`);
      if (j.topTests.length > 10) out(`  (10 of the ${j.topTests.length} failing most; buildcop hotlist --job '^${j.name}$' lists every one)`);
      out('Recent runs:');
      for (const r of j.runs.slice(0, 10)) out(`  ${r.started} ${r.state.padEnd(8)} ${r.buildId} ${r.failed} failed ${r.url}`);
      const runsMore = shownOf(Math.min(10, j.runs.length), j.runsCount, 'runs in the window', `--json lists the latest ${j.runs.length}`);
      if (runsMore) out(`  ${runsMore}`);
      out(renderGrid(j.grid));
    }
    return 0;
  },
};

const CELL = { failed: 'F', flaked: 'f', passed: '.', none: ' ' } as const;

/** TestGrid's view as text: one character per run (newest first), one line per test. */
export function renderGrid(grid: JobDetail['grid']): string {
  if (!grid.rows.length) return `Grid: no test failed or flaked in the latest ${grid.columns.length} runs.`;
  const lines = [`Grid of the latest ${grid.columns.length} runs, newest first (F failed, f flaked, . passed, blank did not run):`];
  for (const row of grid.rows) lines.push(`  ${row.cells.map((c) => CELL[c.outcome]).join('')}  ${row.test}`);
  if (grid.rows.length < grid.totalRows) lines.push(`  (${grid.rows.length} of ${grid.totalRows} tests; --json has the cells and failure texts)`);
  return lines.join('\n');
}

export const runCommand: Command = {
  usage: 'Usage: buildcop run JOB BUILD_ID [--json]',
  async run(argv) {
    const { values: v, positionals } = parse(argv, {}, true);
    if (positionals.length !== 2) throw new UsageError('give the job name and the build id');
    const r = await runDetail(await openDatabase(v.db), positionals[0], positionals[1], loadConfigIfPresent(v.config));
    if (v.json) printJson(r);
    else {
      out(`${r.job} #${r.buildId}: ${r.state}, started ${r.started}${r.durationSeconds !== null ? `, ${Math.round(r.durationSeconds / 60)} min` : ''}`);
      out(`  ${r.url}`);
      if (r.refs.pull) out(`  pull #${r.refs.pull}${r.refs.pullUrl ? ` ${r.refs.pullUrl}` : ''}, head commit ${r.refs.commit}`);
      else if (r.payload) out(`  payload ${r.payload}`);
      const wrappers = r.counts.wrapperFailed + r.counts.wrapperFlaked + r.counts.wrapperPassed;
      out(`  ${r.counts.failed} failed, ${r.counts.flaked} flaked, ${r.counts.passed} passed, ${r.counts.skipped} skipped${wrappers ? ` (and ${wrappers} ci-operator step and monitor results, not counted)` : ''}`);
      if (r.installFailure) out(`  install failed: ${JSON.stringify(r.installFailure)}`);
      if (r.artifactsUrl) out(`  artifacts ${r.artifactsUrl}`);
      if (r.links.buildLog) out(`  build log ${r.links.buildLog}`);
      for (const l of r.links.stepLogs) out(`  step log ${l.step}: ${l.url}`);
      for (const t of r.failedTests) out(`  FAILED ${t.test}\n         ${t.message.split('\n')[0].slice(0, 160)}${t.junitUrl ? `\n         junit ${t.junitUrl}` : ''}`);
      for (const t of r.flakedTests) out(`  FLAKED ${t.test}`);
      for (const t of r.wrapperTests) out(`  (step) ${t.outcome} ${t.test}`);
      for (const e of r.parseErrors) out(`  parse error in ${e.file}: ${e.message}`);
    }
    return 0;
  },
};

export const searchCommand: Command = {
  usage: 'Usage: buildcop search REGEX [--in logs,failures,bugs] [--context N] [--window 14d] [--at ISO] [--job REGEX] [--limit N] [--json]',
  async run(argv) {
    const { values: v, positionals } = parse(argv, { ...WINDOW, job: { type: 'string' }, limit: { type: 'string' }, in: { type: 'string' }, context: { type: 'string' } }, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one regular expression (quote it)');
    const q = parseSearchQuery({ q: positionals[0], window: v.window, at: v.at, job: v.job, limit: v.limit, in: v.in, context: v.context });
    const r = await search(await openDatabase(v.db), q);
    if (v.json) printJson(r);
    else printSearch(r);
    return 0;
  },
};

function printSearch(r: SearchResult): void {
  const lines = (ls: MatchedLine[], indent: string) => {
    for (const l of ls) {
      for (const b of l.before) out(`${indent}  ${b}`);
      out(`${indent}${String(l.line).padStart(6)}: ${l.text}`);
      for (const a of l.after) out(`${indent}  ${a}`);
    }
  };
  out(`${r.matchingRuns} of ${r.totalRuns} runs matched (${r.in.join(', ')}; ${r.window} ${r.from} .. ${r.to})${r.partial ? ` [partial: ${r.partial.reason} after ${r.partial.afterMs} ms; ${r.partial.covered ?? ''}]` : ''}`);
  for (const d of r.perDay) out(`  ${d.day} ${String(d.matchingRuns).padStart(4)} / ${d.runs}`);
  if (r.jobs.length) out(`Build logs: ${r.logJobs} job${r.logJobs === 1 ? '' : 's'}`);
  for (const j of r.jobs) {
    out(`${String(j.matchingRuns).padStart(5)} runs  ${j.job}`);
    for (const run of j.runs.slice(0, 3)) {
      out(`         ${run.started} ${run.buildId} ${run.url}`);
      for (const f of run.files) {
        out(`           ${f.path} (${f.matches} match${f.matches === 1 ? '' : 'es'})`);
        lines(f.lines.slice(0, 3), '           ');
      }
    }
  }
  if (r.results.length) out(`Failures: ${r.tests} test${r.tests === 1 ? '' : 's'}`);
  for (const g of r.results) {
    out(`${String(g.matches).padStart(5)}  ${g.test}`);
    for (const run of g.runs.slice(0, 3)) out(`         ${run.started} ${run.job} ${run.buildId} ${run.url}`);
  }
  const more = shownOf(r.results.length, r.tests, 'tests', `--limit ${Math.min(r.tests, 1000)} shows more`);
  if (more) out(more);
  if (r.bugs.length) out(`Bugs: ${r.matchingBugs}`);
  for (const b of r.bugs) {
    out(`${String(b.matches).padStart(5)}  ${b.tracker} ${b.id} ${b.status} ${b.summary}`);
    lines(b.lines.slice(0, 2), '       ');
  }
}

export const healthCommand: Command = {
  usage: 'Usage: buildcop health [--db URL] [--json]',
  async run(argv) {
    const { values: v } = parse(argv, {});
    const h = await health(() => openDatabase(v.db));
    if (v.json) printJson(h);
    else {
      const age = h.ageSeconds === null ? '' : ` (${Math.round(h.ageSeconds / 60)} minutes ago)`;
      const warned = h.lastIngestWarnings ? `; the latest pass ${reportedProblems(h.lastIngestWarnings)} (buildcop ingest-log)` : '';
      const notStored = h.lastIngestRunsNotStored ? `; the latest pass could not store ${h.lastIngestRunsNotStored} run${h.lastIngestRunsNotStored === 1 ? '' : 's'} (buildcop ingest-log)` : '';
      out(`${h.status}: last ingest ${h.lastIngestAt ?? 'never'}${age}${h.lastIngestStatus && h.lastIngestStatus !== 'ok' ? `, latest pass ${h.lastIngestStatus}` : ''}${notStored}${warned}`);
      out(h.database.reachable ? `database: ${h.database.dialect}, ${h.counts?.runs} runs, ${h.counts?.tests} tests, ${h.counts?.jobs} jobs` : `database unreachable: ${h.database.error}`);
    }
    return h.status === 'ok' ? 0 : 1;
  },
};

export const ingestLogCommand: Command = {
  usage: 'Usage: buildcop ingest-log [--limit N] [--db URL] [--json]\n  --limit N: passes listed, newest first (default 20)',
  async run(argv) {
    const { values: v } = parse(argv, { limit: { type: 'string' } });
    const log = await ingestLog(await openDatabase(v.db), parseIngestLogQuery({ limit: v.limit }));
    if (v.json) printJson(log);
    else {
      const n = (x: number) => x.toLocaleString('en-US');
      out(log.passes.length ? 'Ingest passes, newest first:' : 'No ingest pass yet: run `buildcop ingest`.');
      for (const p of log.passes) {
        out(
          `  ${p.startedAt} ${p.status.padEnd(11)} ${p.seconds.toFixed(1).padStart(6)} s  ${n(p.runsNew)} new, ${n(p.runsUpdated)} updated, ${n(p.runsPending)} pending` +
            `${p.runsLost ? ` (${n(p.runsLost)} lost)` : ''}${p.runsFailed ? `, ${n(p.runsFailed)} failed` : ''}${p.runsNotStored ? ` (${n(p.runsNotStored)} not stored)` : ''}; ${n(p.testResults)} test results, ${n(p.parseErrors)} parse errors; ${(p.downloadedBytes / 1e6).toFixed(1)} MB`,
        );
        if (p.message) out(`      failed: ${p.message}`);
        for (const w of p.warnings) out(`      warning: ${w}`);
      }
      const pending = log.pending;
      out(`Pending runs: ${pending.total} (${pending.running} running, ${pending.retrying} retrying, ${pending.lost} lost track of)`);
      for (const r of pending.runs) {
        const tries = r.attempts ? ` (${r.attempts} tr${r.attempts === 1 ? 'y' : 'ies'}${r.nextCheck ? `, next ${r.nextCheck}` : ''}): ${r.lastError.split('\n')[0]}` : '';
        out(`  ${r.why.padEnd(8)} ${r.job} ${r.buildId} started ${r.started}${tries}`);
      }
      const pendingMore = shownOf(pending.runs.length, pending.total, 'pending runs', '--json has the same; GET /api/ingest too');
      if (pendingMore) out(`  ${pendingMore}`);
      out(`Parse errors: ${log.parseErrors.total} in ${log.parseErrors.runs} run${log.parseErrors.runs === 1 ? '' : 's'}`);
      for (const e of log.parseErrors.errors) out(`  ${e.job} ${e.buildId} ${e.file}: ${e.message.split('\n')[0]}`);
      const errorsMore = shownOf(log.parseErrors.errors.length, log.parseErrors.total, 'parse errors, the latest first', 'each run\'s page lists its own');
      if (errorsMore) out(`  ${errorsMore}`);
    }
    return 0;
  },
};
