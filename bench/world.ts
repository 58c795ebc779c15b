// Generates the scale database the analysis benchmarks run on, into a database of your choosing:
//   npm run bench:world -- --db URL --days 14 --runs-per-day 24000 --tests 3000 [--failure-density 1]
//                          [--jobs N] [--end ISO] [--force]
// The database must be empty (or --force empties it). At 24,000 runs a day for 14 days it holds about
// 20 million non-passing outcomes at the default density (2% of executed outcomes).
import { parseArgs } from 'node:util';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { formatReadIndexes, updateReadIndexes } from '../lib/store/readIndexes';
import { emptyDatabase } from './database';
import { generateScaleDatabase } from './scaleWorld';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    days: { type: 'string', default: '14' },
    'runs-per-day': { type: 'string', default: '24000' },
    tests: { type: 'string', default: '3000' },
    jobs: { type: 'string' },
    'failure-density': { type: 'string', default: '1' },
    end: { type: 'string' },
    force: { type: 'boolean', default: false },
  },
});
if (!values.db) {
  console.error('give --db URL (file:PATH for SQLite, postgresql://... for PostgreSQL)');
  process.exit(2);
}
const end = values.end ? Math.floor(Date.parse(values.end) / 1000) : Math.floor(Date.now() / 3_600_000) * 3600;
const db = await openDatabase(values.db);
const existing = Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM run'))?.n ?? 0);
if (existing && !values.force) {
  console.error(`the database holds ${existing} runs: give an empty one, or --force to empty it`);
  process.exit(2);
}
if (existing) {
  if (db.dialect === 'postgres') await emptyDatabase(db);
  else for (const [t] of await db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'")) await db.run(`DELETE FROM "${t as string}"`);
}
const t0 = performance.now();
const world = await generateScaleDatabase(db, {
  days: Number(values.days), runsPerDay: Number(values['runs-per-day']), tests: Number(values.tests),
  jobs: values.jobs ? Number(values.jobs) : undefined, failureDensity: Number(values['failure-density']), end,
  progress: (day, runs, outcomes) => process.stderr.write(`\rday ${day}: ${runs.toLocaleString('en-US')} runs, ${outcomes.toLocaleString('en-US')} non-passing outcomes, ${((performance.now() - t0) / 1000).toFixed(0)} s`),
});
process.stderr.write('\n');
// as the ingester that stored these runs would have after its passes: the test sets indexed, the days
// over packed
for (const line of formatReadIndexes(await updateReadIndexes(db, { now: end, budgetMs: Infinity }))) process.stderr.write(`${line}\n`);
// and vacuumed, as PostgreSQL's autovacuum leaves a deployment's settled days: without it every row an
// index-only scan of the rollups meets is looked up in its table too (30,000 table pages for ten
// hours of rollup_test_hour), and a database restored or restarted uncleanly has lost the counts that
// start autovacuum
if (db.dialect === 'postgres') await db.run('VACUUM (ANALYZE)');
console.log(JSON.stringify({ end: new Date(end * 1000).toISOString(), ...world, jobs: world.jobs.length, tests: world.tests.length, nonPassingShare: Math.round((world.outcomes / world.executed) * 10000) / 10000, seconds: Math.round((performance.now() - t0) / 1000) }));
await closeDatabase(db);
