// What retention costs on a database at scale (one made by bench:world): the ingester's pruning of the
// runs that fell out of `retention`, as lib/store/retention.ts does it in a pass, in three steps from
// the oldest run on: what a pass a few minutes after the last prunes, then an hour, then the rest of
// that UTC day (a catch-up after a stopped ingester, with PostgreSQL's whole-day partition drop).
// It deletes those runs for good, so it asks for --yes:
//   npm run bench:retention -- --db URL --yes [--pass-minutes 5]
import { parseArgs } from 'node:util';
import { DAY } from '../lib/history/spans';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { pruneRunsBefore } from '../lib/store/retention';

const { values } = parseArgs({ options: { db: { type: 'string' }, yes: { type: 'boolean', default: false }, 'pass-minutes': { type: 'string', default: '5' } } });
if (!values.db || !values.yes) {
  console.error('give --db URL and --yes: this deletes the oldest day of runs of that database');
  process.exit(2);
}
const db = await openDatabase(values.db);
const first = Number((await db.get<{ t: number | null }>('SELECT MIN(started) AS t FROM run'))?.t ?? NaN);
if (!Number.isFinite(first)) {
  console.error('the database holds no runs');
  process.exit(2);
}
const outcomes = async (cutoff: number) => Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM test_outcome WHERE started < ?', [cutoff]))?.n ?? 0);
const steps = [
  { name: `a pass ${values['pass-minutes']} min after the last`, cutoff: first + Number(values['pass-minutes']) * 60 },
  { name: 'an hour', cutoff: first + 3600 },
  { name: 'the rest of the first day', cutoff: (Math.floor(first / DAY) + 1) * DAY },
];
console.log(`${db.dialect}: pruning from ${new Date(first * 1000).toISOString()}`);
let done = first;
for (const s of steps) {
  if (s.cutoff <= done) continue;
  const rows = await outcomes(s.cutoff);
  const t0 = performance.now();
  const pruned = await pruneRunsBefore(db, s.cutoff);
  const seconds = (performance.now() - t0) / 1000;
  done = s.cutoff;
  console.log(
    `${s.name.padEnd(30)} ${String(pruned.runs).padStart(6)} runs, ${rows.toLocaleString('en-US').padStart(10)} outcomes: ${seconds.toFixed(2)} s` +
      (pruned.outcomeDaysDropped.length ? ` (${pruned.outcomeDaysDropped.length} outcome partition dropped)` : ''),
  );
}
await closeDatabase(db);
