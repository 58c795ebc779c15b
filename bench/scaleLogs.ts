// What search reads, for the scale database of bench/scaleWorld.ts: a build log per run (a
// ci-operator header, openshift-tests lines for a few hundred tests, the failures of the run with
// their texts, now and then a rare line) and a failure text per non-passing outcome, stored through
// ingest's own write path (compressed logs, gram documents against each job's base). Then the
// 14-day searches bench/analysis.ts times: a literal, a regex with a literal, a regex with none.
import { parseSearchQuery, search } from '../lib/answers/search';
import { compressLog, failureText, logTail } from '../lib/search/runText';
import type { Database, Param, Sql } from '../lib/store/db';
import { pgArrayLiteral } from '../lib/store/bulk';
import { GramCollector } from '../lib/store/searchGrams';
import { SearchBases, writeSearchRows } from '../lib/store/searchIndex';
import { failureTexts, makeRng } from './clustering';

export interface ScaleLogOptions {
  /** Unix seconds: the end of the history (searches end there) */
  end: number;
  /** openshift-tests lines per log */
  testLines?: number;
  seed?: number;
}

/** One run in 100 logs an etcd timeout, one in 500 a nil pointer panic; one job in 10 promotes. */
const RARE = { etcd: 0.01, panic: 0.002 };
export const SCALE_SEARCHES = [
  { label: 'a literal (the runs of the promotion jobs)', q: 'Will promote' },
  { label: 'a literal', q: 'etcdserver: request timed out' },
  { label: 'a regex with a literal', q: 'sha256:[0-9a-f]{64}, current' },
  { label: 'a regex with a literal', q: 'panic: runtime error: .* nil pointer' },
  { label: 'a regex with no literal to look for', q: '[0-9a-f]{64}' },
] as const;

const pad = (n: number) => String(n).padStart(2, '0');
const time = (t: number) => new Date(t * 1000).toISOString().slice(0, 19);

export async function addScaleLogs(db: Database, o: ScaleLogOptions): Promise<{ runs: number; logBytes: number; storedBytes: number; failures: number }> {
  const r = makeRng(o.seed ?? 11);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join('');
  const texts = failureTexts(23);
  const testLines = o.testLines ?? 250;
  const names = new Map((await db.rows('SELECT id, name FROM test')).map(([id, name]) => [Number(id), name as string]));
  const nameList = [...names.values()];
  const runs = await db.rows('SELECT id, job_id, started, state FROM run ORDER BY started, id');
  const outcomesOf = new Map<number, [number, number][]>();
  for (const [runId, testId, outcome] of await db.rows('SELECT run_id, test_id, outcome FROM test_outcome')) {
    let list = outcomesOf.get(Number(runId));
    if (!list) outcomesOf.set(Number(runId), (list = []));
    list.push([Number(testId), Number(outcome)]);
  }
  const grams = new GramCollector();
  const bases = new SearchBases();
  let logBytes = 0;
  let storedBytes = 0;
  let failures = 0;
  for (let i = 0; i < runs.length; i += 500) {
    const batch = runs.slice(i, i + 500);
    const logs: Param[][] = [];
    const docs: Param[][] = [];
    const messages: [number, number, string][] = [];
    for (const [id, jobIdRaw, startedRaw, state] of batch) {
      const runId = Number(id);
      const jobId = Number(jobIdRaw);
      const started = Number(startedRaw);
      const ns = `ci-op-${hex(8)}`;
      const lines = [
        `${time(started)} ci-operator version v20261120-${hex(8)}`,
        `${time(started + 1)} Using namespace https://console.build0${1 + (jobId % 5)}.ci.openshift.org/k8s/cluster/projects/${ns}`,
        `${time(started + 40)} Imported release 4.${1 + (jobId % 6)}.0-0.nightly-2026-11-${pad(1 + (started % 28))}-${hex(6)} to tag release:latest`,
      ];
      if (jobId % 10 === 0) lines.push(`Will promote sha256:${hex(64)}, current is sha256:${hex(64)}`);
      lines.push(`${time(started + 46)} Running multi-stage test e2e`, `${time(started + 50)} Running step e2e-ipi-install-install.`, `level=info msg="Waiting up to 20m0s for the Kubernetes API at https://api.${ns}.example.com:6443..."`);
      for (let k = 0; k < testLines; k++) {
        const t = started + 2000 + k * 7;
        lines.push(`passed: (${(r() * 90).toFixed(1)}s) ${time(t)} "${nameList[Math.floor(r() * nameList.length)]}"`);
      }
      if (r() < RARE.etcd) lines.push(`E1122 ${pad(started % 24)}:00:00.000000 1 leaderelection.go:330] error retrieving resource lock: etcdserver: request timed out`);
      if (r() < RARE.panic) lines.push('panic: runtime error: invalid memory address or nil pointer dereference', `[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x${hex(7)}]`);
      for (const [testId, outcome] of outcomesOf.get(runId) ?? []) {
        const message = texts.next();
        const name = names.get(testId)!;
        messages.push([runId, testId, message]);
        lines.push(message, `${outcome === 1 ? 'failed' : 'flaked'}: (${(r() * 90).toFixed(1)}s) ${time(started + 5000)} "${name}"`);
        grams.addString(failureText({ name, message }));
        failures++;
      }
      const failureGrams = grams.take();
      lines.push(`${time(started + 5300)} Step e2e-openshift-e2e-test ${state === 'success' ? 'succeeded' : 'failed'} after 1h${pad(started % 60)}m.`);
      const bytes = Buffer.from(`${lines.join('\n')}\n`);
      const { text, tailStart } = logTail(bytes);
      grams.add(text);
      const body = compressLog(text);
      logBytes += bytes.length;
      storedBytes += body.length;
      logs.push([runId, 'build-log.txt', body, bytes.length, tailStart]);
      bases.docRows('logs', jobId, runId, started, grams.take(), docs);
      bases.docRows('failures', jobId, runId, started, failureGrams, docs);
    }
    bases.flush(docs);
    await db.tx(async (sql) => {
      await writeSearchRows(sql, logs, docs);
      await updateMessages(sql, messages);
    });
  }
  return { runs: runs.length, logBytes, storedBytes, failures };
}

/** The outcomes' failure texts, in one statement per engine. */
async function updateMessages(sql: Sql, rows: [number, number, string][]): Promise<void> {
  if (!rows.length) return;
  if (sql.dialect === 'postgres') {
    await sql.run(
      'UPDATE test_outcome o SET message = v.m FROM unnest(?::int[], ?::int[], ?::text[]) AS v(r, t, m) WHERE o.run_id = v.r AND o.test_id = v.t',
      [pgArrayLiteral(rows.map((x) => x[0])), pgArrayLiteral(rows.map((x) => x[1])), pgArrayLiteral(rows.map((x) => x[2]))],
    );
    return;
  }
  for (const [runId, testId, message] of rows) await sql.run('UPDATE test_outcome SET message = ? WHERE run_id = ? AND test_id = ?', [message, runId, testId]);
}

/** Times each of SCALE_SEARCHES over the 14 days before `end`, without a time budget, and within the server's. */
export async function timeScaleSearches(db: Database, end: number, print: (line: string) => void): Promise<void> {
  const at = new Date(end * 1000).toISOString();
  for (const s of SCALE_SEARCHES) {
    const t0 = performance.now();
    const res = await search(db, parseSearchQuery({ q: s.q, at, window: '14d' }));
    const ms = performance.now() - t0;
    const c = res.candidates;
    print(
      `search 14d, ${s.label} ${JSON.stringify(s.q)}: ${(ms / 1000).toFixed(2)} s; ${res.matchingRuns} of ${res.totalRuns} runs match; candidates: ${c.logs} logs, ${c.failures} failure sets, ${c.bugs} bugs; ${res.logJobs} jobs, ${res.tests} tests`,
    );
  }
}
