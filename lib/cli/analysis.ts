// hotlist and test: the analysis commands.
import { loadConfigIfPresent } from '../config';
import { hotlist, parseHotlistQuery, type Hotlist } from '../answers/hotlist';
import { standingAnswer } from '../answers/standing';
import { parseTestQuery, testDetail } from '../answers/testDetail';
import { publicOrigin, testCommentInput, testPermalink } from '../answers/testComment';
import { bugComment, type Tracker } from '../bugs/comment';
import { openDatabase } from '../store/db';
import { parse, printJson, shownOf, UsageError } from './args';
import type { Command } from './command';

const FILTERS = {
  window: { type: 'string' },
  at: { type: 'string' },
  job: { type: 'string' },
  release: { type: 'string' },
  platform: { type: 'string' },
  upgrade: { type: 'string' },
  owner: { type: 'string' },
  classification: { type: 'string' },
  'no-bug': { type: 'boolean' },
  test: { type: 'string' },
  sort: { type: 'string' },
  limit: { type: 'string' },
} as const;

export const hotlistCommand: Command = {
  usage: `Usage: buildcop hotlist [--window 24h|3d|7d|14d|30d|90d] [--at ISO] [--job REGEX] [--limit N] [--json]
       [--release 4.2] [--platform aws] [--upgrade true|false] [--owner SIG] [--classification C]
       [--no-bug] [--test REGEX] [--sort failures|severity]
Verdicts (regression, broken, flaky, infra, fixed, failing) are judged on the 14 days before --at,
whatever the window: the same test has the same verdict on every window.`,
  async run(argv) {
    const { values: v } = parse(argv, FILTERS);
    const { json: _json, help: _help, 'no-bug': noBug, ...params } = v;
    const query = { ...params, noBug: noBug ? 'true' : undefined };
    const q = parseHotlistQuery(query);
    const config = loadConfigIfPresent(v.config);
    const db = await openDatabase(v.db);
    // for now, the answer the ingester stored after its last pass, when it still stands
    const result = ((await standingAnswer(db, 'hotlist', query, config?.ignoreTests)) as Hotlist | undefined) ?? (await hotlist(db, q, { ignoreTests: config?.ignoreTests }));
    if (v.json) printJson(result);
    else {
      const more = shownOf(result.items.length, result.totalItems, 'tests', `--limit ${Math.min(result.totalItems, 10_000)} shows them all`);
      process.stdout.write(`Hot list ${result.window} ${result.from} .. ${result.to}: ${result.totalItems} tests failing or flaking${more ? `, showing ${result.items.length}` : ''}\n`);
      for (const it of result.items) {
        const bugs = it.bugs.length ? ` bugs: ${it.bugs.map((b) => `${b.tracker}:${b.id}`).join(',')}` : '';
        process.stdout.write(
          `${String(it.failedRuns).padStart(5)} failed ${String(it.flakedRuns).padStart(4)} flaked /${String(it.runs).padStart(5)} runs  ${it.classification.padEnd(10)} ${it.test}${it.isNew ? ' [new]' : ''}${bugs}\n`,
        );
      }
      if (more) process.stdout.write(`${more}\n`);
    }
    return 0;
  },
};

const COMMENT_TRACKERS: readonly string[] = ['bugzilla', 'jira', 'github'];

export const testCommand: Command = {
  usage: `Usage: buildcop test "<full test name or 16-digit id>" [--window 7d] [--at ISO] [--job REGEX] [--json]
       [--limit N] [--before ISO] [--comment bugzilla|jira|github]
  --limit, --before: the failed and flaked runs listed, newest first, a page at a time (default 200);
             --before takes the runsNext of the page before
  --comment: print the paste-ready bug comment in that tracker's format (plain text, wiki markup,
             Markdown); its links point at $BUILDCOP_PUBLIC_URL (default http://localhost:3000)`,
  async run(argv) {
    const { values: v, positionals } = parse(argv, { window: FILTERS.window, at: FILTERS.at, job: FILTERS.job, limit: FILTERS.limit, before: { type: 'string' }, comment: { type: 'string' } }, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one test name or id (quote the name)');
    if (v.comment !== undefined && !COMMENT_TRACKERS.includes(v.comment as Tracker)) throw new UsageError(`--comment takes ${COMMENT_TRACKERS.join(', ')}, not ${JSON.stringify(v.comment)}`);
    const detail = await testDetail(await openDatabase(v.db), positionals[0], parseTestQuery({ window: v.window, at: v.at, job: v.job, limit: v.limit, before: v.before }));
    if (v.comment) process.stdout.write(`${bugComment(v.comment as Tracker, testCommentInput(detail, testPermalink(publicOrigin(), detail, v.job)))}\n`);
    else if (v.json) printJson(detail);
    else {
      process.stdout.write(`${detail.test}\nid ${detail.id}  ${detail.classification}: ${String(detail.evidence.summary)}\n`);
      process.stdout.write(`${detail.failedRuns} failed, ${detail.flakedRuns} flaked of ${detail.runsCount} runs (${detail.from} .. ${detail.to})\n`);
      const lines = (l: string[]) => l.filter(Boolean).forEach((x) => process.stdout.write(`${x}\n`));
      lines(detail.signatures.slice(0, 5).map((s) => `  signature ${s.id} x${s.count}: ${s.text.split('\n')[0].slice(0, 120)}`));
      lines([shownOf(Math.min(5, detail.signatures.length), detail.signatures.length, 'signatures', '--json lists them all')]);
      lines(detail.runs.slice(0, 20).map((r) => `  ${r.started} ${r.outcome.padEnd(7)} ${r.job} ${r.buildId} ${r.url}`));
      const shown = Math.min(20, detail.runs.length);
      lines([shownOf(shown, detail.runsTotal, 'failed and flaked runs', shown < detail.runs.length ? `--json lists ${detail.runs.length}; --limit and --before page through them all` : `--before ${detail.runsNext} lists older ones`)]);
      for (const b of detail.bugs) process.stdout.write(`  bug ${b.tracker} ${b.id} [${b.status}] ${b.summary} (${b.reason})\n`);
    }
    return 0;
  },
};
