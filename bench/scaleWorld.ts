// A database at OpenShift scale for the analysis benchmark: N days of R runs a day over T tests,
// written straight through the bulk path (no HTTP, no parsing). Failure density is modelled on
// OpenShift CI: most runs pass every test; a quarter fail a few tests; a few percent fall over and
// fail hundreds; about one retried flake per run; a regression and a broken test among them.
import { testId } from '../lib/ids';
import { SignatureIndex } from '../lib/signatures/clustering';
import type { Database } from '../lib/store/db';
import { insertMany } from '../lib/store/bulk';
import { encodeTestSet, testSetHash } from '../lib/store/testSets';
import { failureTexts, makeRng } from './clustering';

export interface ScaleOptions {
  days: number;
  runsPerDay: number;
  tests: number;
  jobs: number;
  /** Unix seconds: the end of the generated history */
  end: number;
  seed?: number;
}

const PLATFORMS = ['aws', 'gcp', 'azure', 'metal', 'vsphere', 'openstack'];

export async function generateScaleDatabase(db: Database, o: ScaleOptions): Promise<{ runs: number; outcomes: number; sets: number }> {
  const r = makeRng(o.seed ?? 7);
  const start = o.end - o.days * 86_400;
  const jobNames = Array.from({ length: o.jobs }, (_, i) =>
    i % 4 === 3
      ? `pull-ci-openshift-origin-release-4.${(i % 6) + 1}-e2e-${PLATFORMS[i % PLATFORMS.length]}-${i}`
      : `periodic-ci-openshift-release-master-nightly-4.${(i % 6) + 1}-e2e-${PLATFORMS[i % PLATFORMS.length]}${i % 5 === 0 ? '-upgrade' : ''}-${i}`,
  );
  const sigIndex = new SignatureIndex();
  const texts = failureTexts(11);
  let outcomes = 0;
  let runCount = 0;
  const setIds = new Map<string, number>();

  await db.tx(async (sql) => {
    await insertMany(sql, 'job', ['name', 'type', 'first_seen'], jobNames.map((n) => [n, n.startsWith('pull-') ? 'presubmit' : 'periodic', start]));
    const jobRows = await sql.all<{ id: number; name: string }>('SELECT id, name FROM job');
    const jobId = new Map(jobRows.map((j) => [j.name, j.id]));
    const names = Array.from({ length: o.tests }, (_, i) => `[sig-${['network', 'node', 'storage', 'apps', 'cli', 'auth', 'api-machinery'][i % 7]}] synthetic behaviour ${i} should hold [Suite:openshift/conformance/parallel]`);
    await insertMany(sql, 'test', ['hash', 'name', 'first_seen'], names.map((n) => [testId(n), n, start]));
    const testRows = await sql.all<{ id: number; name: string }>('SELECT id, name FROM test');
    const ids = new Map(testRows.map((t) => [t.name, t.id]));
    const allIds = names.map((n) => ids.get(n)!);

    // Signatures: a few thousand clusters of realistic texts.
    const sigRows: { hash: string; text: string }[] = [];
    const sigSeen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const s = sigIndex.assign(texts.next());
      if (!sigSeen.has(s.hash)) {
        sigSeen.add(s.hash);
        sigRows.push({ hash: s.hash, text: s.text });
      }
    }
    await insertMany(sql, 'signature', ['hash', 'text', 'first_seen'], sigRows.map((s) => [s.hash, s.text, start]));
    const sigIds = (await sql.all<{ id: number }>('SELECT id FROM signature ORDER BY id')).map((s) => s.id);

    // Per-test failure propensity: Zipf-like, so a few tests fail a lot.
    const weight = allIds.map((_, i) => 1 / Math.pow(i + 1, 0.9));
    const total = weight.reduce((a, b) => a + b, 0);
    const cumulative: number[] = [];
    let acc = 0;
    for (const w of weight) cumulative.push((acc += w / total));
    const pickTest = () => {
      const x = r();
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const regression = allIds[5];
    const broken = allIds[9];

    const runRows: (string | number | null)[][] = [];
    const outcomeRows: (string | number | null)[][] = [];
    const setRows: (string | number | Buffer)[][] = [];
    for (let day = 0; day < o.days; day++) {
      for (let j = 0; j < jobNames.length; j++) {
        // each job's suite drifts a little every day: a set per job per day
        const dropped = new Set(Array.from({ length: 40 + (j % 7) * 30 }, (_, k) => (j * 131 + k * 17 + day) % o.tests));
        const members = allIds.filter((_, i) => !dropped.has(i));
        const enc = encodeTestSet([...members].sort((a, b) => a - b));
        const key = testSetHash(enc);
        if (!setIds.has(key)) {
          setIds.set(key, setIds.size + 1);
          setRows.push([setIds.size, key, members.length, enc]);
        }
        const setId = setIds.get(key)!;
        const perJob = Math.round(o.runsPerDay / jobNames.length);
        for (let k = 0; k < perJob; k++) {
          runCount++;
          const started = start + day * 86_400 + Math.floor(((k + r()) / perJob) * 86_400);
          const runId = runCount;
          const failed = new Map<number, number>();
          const x = r();
          if (x < 0.04) for (let n = 50 + Math.floor(r() * 250); n > 0; n--) failed.set(members[Math.floor(r() * members.length)], 1);
          else if (x < 0.3) for (let n = 1 + Math.floor(r() * 8); n > 0; n--) failed.set(allIds[pickTest()], 1);
          if (r() < 0.8) failed.set(allIds[pickTest()], 2);
          if (started > start + o.days * 0.7 * 86_400 && r() < 0.5) failed.set(regression, 1);
          if (j === 2) failed.set(broken, 1);
          let f = 0;
          let fl = 0;
          for (const [t, outcome] of failed) {
            if (outcome === 1) f++;
            else fl++;
            outcomeRows.push([runId, t, outcome, sigIds[Math.floor(r() * sigIds.length)], started, jobId.get(jobNames[j])!, 'synthetic failure text']);
          }
          outcomes += failed.size;
          const state = f > 0 ? 'failure' : 'success';
          runRows.push([runId, jobId.get(jobNames[j])!, String(1_000_000 + runId), state, started, started + 5400, `https://prow.example/view/gs/b/logs/${jobNames[j]}/${runId}`, '', null, '', '', `4.${(j % 6) + 1}.0-0.nightly-${day}`, setId, members.length - f - fl, f, fl, o.tests - members.length, x < 0.02 ? 1 : 0, 0, '{}', '', o.end]);
        }
      }
    }
    await insertMany(sql, 'test_set', ['id', 'hash', 'size', 'members'], setRows);
    await insertMany(sql, 'run', ['id', 'job_id', 'build_id', 'state', 'started', 'finished', 'url', 'gcs_path', 'pull', 'base_ref', 'commit_sha', 'payload', 'test_set_id', 'passed', 'failed', 'flaked', 'skipped', 'install_failed', 'parse_errors', 'meta', 'fingerprint', 'ingested_at'], runRows);
    await insertMany(sql, 'test_outcome', ['run_id', 'test_id', 'outcome', 'signature_id', 'started', 'job_id', 'message'], outcomeRows);
  });
  if (db.dialect === 'postgres') {
    // explicit ids were inserted: move the sequences past them
    for (const t of ['run', 'test_set']) await db.run(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT MAX(id) FROM ${t}))`);
    await db.run('ANALYZE');
  } else await db.run('ANALYZE');
  return { runs: runCount, outcomes, sets: setIds.size };
}
