// A database at OpenShift scale for the benchmarks: N days of R runs a day over T tests, written
// straight through the bulk path (no HTTP, no parsing) with the rollups ingest keeps (the same
// lib/store/rollups.ts code as ingest's write path). The failure density is modelled on OpenShift CI at
// about 2% of executed outcomes not passing (--failure-density multiplies it): most runs pass every
// test; some fail a few; a few percent fall over and fail hundreds with one cause; flakes here and
// there; a regression on one release, a test broken on one job. Failure texts run to a few hundred
// characters, with the names, addresses and ids real ones carry.
import { testId } from '../lib/ids';
import type { Database } from '../lib/store/db';
import { insertMany } from '../lib/store/bulk';
import { ensureOutcomeDays } from '../lib/store/partitions';
import { rollUpStored } from '../lib/store/rollups';
import { encodeTestSet, testSetHash } from '../lib/store/testSets';
import { makeRng, type Rng } from './clustering';

export interface ScaleOptions {
  days: number;
  runsPerDay: number;
  tests: number;
  /** jobs to spread the runs over (default: one per 60 runs a day) */
  jobs?: number;
  /** Unix seconds: the end of the generated history */
  end: number;
  /** 1 = about 2% of executed outcomes fail or flake */
  failureDensity?: number;
  seed?: number;
  /** told after each day */
  progress?: (day: number, runs: number, outcomes: number) => void;
}

export interface ScaleWorld {
  runs: number;
  outcomes: number;
  executed: number;
  sets: number;
  jobs: string[];
  tests: string[];
  /** the scenario tests: a regression on one release from 70% of the days, a test broken on one job */
  regression: string;
  broken: string;
  brokenJob: string;
}

const PLATFORMS = ['aws', 'gcp', 'azure', 'metal', 'vsphere', 'openstack'];
const RELEASES = ['4.15', '4.16', '4.17', '4.18', '4.19', '4.20'];
const SIGS = ['network', 'node', 'storage', 'apps', 'cli', 'auth', 'api-machinery', 'instrumentation', 'builds', 'imageregistry'];
const K8S = 'bcdfghjklmnpqrstvwxz2456789';

const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const name = (r: Rng, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += K8S[Math.floor(r() * K8S.length)];
  return s;
};

/** Failure texts of a few hundred characters; `kind` picks the shape, the rest is per-occurrence noise. */
function failureText(r: Rng, kind: number, test: number): string {
  const ns = `e2e-test-${SIGS[test % SIGS.length]}-${name(r, 5)}`;
  const host = `api.ci-op-${name(r, 8)}-${name(r, 5)}.origin-ci-int-aws.dev.rhcloud.com`;
  const file = `github.com/openshift/origin/test/extended/${SIGS[kind % SIGS.length]}/helpers.go:${100 + ((kind * 37) % 900)}`;
  switch (kind % 6) {
    case 0:
      return `fail [${file}]: Unexpected error:\n    <*errors.errorString | 0xc${name(r, 9)}>: {\n        s: "timed out waiting for the condition",\n    }\n    timed out waiting for pod ${ns}/pod-${name(r, 5)} to be running (kind ${kind}): container "app" in CrashLoopBackOff\noccurred`;
    case 1:
      return `fail [${file}]: Expected\n    <int>: ${int(r, 0, 3)}\nto equal\n    <int>: ${int(r, 4, 6)}\nDeployment dep-${kind} in namespace ${ns} did not reach the expected replicas within 5m0s; last seen ${int(r, 0, 3)} ready of ${int(r, 4, 6)} on node ip-10-0-${int(r, 0, 255)}-${int(r, 0, 255)}.ec2.internal`;
    case 2:
      return `fail [${file}]: Get "https://${host}:6443/api/v1/namespaces/${ns}/pods?timeout=32s": dial tcp 10.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}:6443: connect: connection refused (check ${kind})`;
    case 3:
      return `fail [${file}]: route ${ns}/route-${kind} was not admitted by router default within 3m0s: status 503 from http://${host}/healthz after ${int(r, 1, 59)}.${int(r, 1, 999)}s; events: FailedScheduling ${int(r, 1, 9)} times`;
    case 4:
      return `fail [${file}]: pod ${ns}/pvc-test-${name(r, 5)} did not reach phase Bound: PersistentVolumeClaim pvc-${name(r, 5)} provisioning failed: rpc error: code = DeadlineExceeded desc = context deadline exceeded (driver ${kind})`;
    default:
      return `fail [${file}]: build ${ns}/build-${kind}-${int(r, 1, 9)} failed: error: build error: failed to push image quay.io/openshift/ci:${name(r, 12)}: received unexpected HTTP status: 503 Service Unavailable`;
  }
}

/** The text of a mass failure: every test of the run fails with the same cause, in its own namespace. */
function massText(r: Rng, incident: number): string {
  const host = `api.ci-op-${name(r, 8)}-${name(r, 5)}.origin-ci-int-aws.dev.rhcloud.com`;
  return `fail [k8s.io/kubernetes/test/e2e/framework/framework.go:${240 + incident}]: Unexpected error:\n    <*url.Error | 0xc${name(r, 9)}>: {\n        Op: "Get", URL: "https://${host}:6443/api/v1/namespaces/e2e-test-${name(r, 5)}",\n    }\n    Get https://${host}:6443/api/v1/namespaces/e2e-test-${name(r, 5)}: ${['net/http: TLS handshake timeout', 'the server is currently unable to handle the request', 'etcdserver: leader changed', 'dial tcp: i/o timeout'][incident % 4]} (incident ${incident})\noccurred`;
}

const TEST_KINDS = 400;
const INCIDENTS = 40;

export async function generateScaleDatabase(db: Database, o: ScaleOptions): Promise<ScaleWorld> {
  const r = makeRng(o.seed ?? 7);
  const density = o.failureDensity ?? 1;
  const start = o.end - o.days * 86_400;
  const jobCount = o.jobs ?? Math.max(20, Math.round(o.runsPerDay / 60));
  const jobNames = Array.from({ length: jobCount }, (_, i) => {
    const rel = RELEASES[i % RELEASES.length];
    const plat = PLATFORMS[Math.floor(i / RELEASES.length) % PLATFORMS.length];
    return i % 4 === 3
      ? `pull-ci-openshift-origin-release-${rel}-e2e-${plat}-${i}`
      : `periodic-ci-openshift-release-master-nightly-${rel}-e2e-${plat}${i % 5 === 0 ? '-upgrade' : ''}-${i}`;
  });
  const tests = Array.from({ length: o.tests }, (_, i) => `[sig-${SIGS[i % SIGS.length]}] synthetic behaviour ${i} should hold [Suite:openshift/conformance/parallel]`);

  await db.tx(async (sql) => {
    await insertMany(sql, 'job', ['name', 'type', 'first_seen'], jobNames.map((n) => [n, n.startsWith('pull-') ? 'presubmit' : 'periodic', start]));
    await insertMany(sql, 'test', ['hash', 'name', 'first_seen'], tests.map((n) => [testId(n), n, start]));
    const sigs = [
      ...Array.from({ length: TEST_KINDS }, (_, k) => [`scale-kind-${k}`, failureText(makeRng(k + 1), k, k), start]),
      ...Array.from({ length: INCIDENTS }, (_, k) => [`scale-incident-${k}`, massText(makeRng(k + 1000), k), start]),
    ];
    await insertMany(sql, 'signature', ['hash', 'text', 'first_seen'], sigs);
  });
  const jobId = new Map((await db.all<{ id: number; name: string }>('SELECT id, name FROM job')).map((j) => [j.name, j.id]));
  const testIds = new Map((await db.all<{ id: number; name: string }>('SELECT id, name FROM test')).map((t) => [t.name, t.id]));
  const sigId = new Map((await db.all<{ id: number; hash: string }>('SELECT id, hash FROM signature')).map((s) => [s.hash, s.id]));
  const ids = tests.map((n) => testIds.get(n)!);
  const kindSig = Array.from({ length: TEST_KINDS }, (_, k) => sigId.get(`scale-kind-${k}`)!);
  const incidentSig = Array.from({ length: INCIDENTS }, (_, k) => sigId.get(`scale-incident-${k}`)!);

  // Per-test failure propensity: Zipf-like, so a few tests fail a lot.
  const cumulative: number[] = [];
  let acc = 0;
  for (let i = 0; i < o.tests; i++) cumulative.push((acc += 1 / Math.pow(i + 1, 0.9)));
  const pickTest = () => {
    const x = r() * acc;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const regression = 5;
  const broken = 9;
  const brokenJob = 2;
  const regressionRelease = RELEASES[1];

  let runId = 0;
  let outcomes = 0;
  let executed = 0;
  const setIds = new Map<string, number>();
  const perJobPerDay = Math.max(1, Math.round(o.runsPerDay / jobCount));
  let runRows: (string | number | null)[][] = [];
  let outcomeRows: (string | number | null)[][] = [];
  let setRows: (string | number | Buffer)[][] = [];
  // written a few hundred thousand outcomes at a time: a day at four times the density is 5 million
  // outcomes with their texts, more than a heap holds as rows
  const flush = async () => {
    if (!runRows.length) return;
    await ensureOutcomeDays(db, runRows.map((row) => row[4] as number)); // PostgreSQL's day partitions
    await db.tx(async (sql) => {
      await insertMany(sql, 'test_set', ['id', 'hash', 'size', 'members'], setRows);
      await insertMany(sql, 'run', ['id', 'job_id', 'build_id', 'state', 'started', 'finished', 'url', 'gcs_path', 'pull', 'base_ref', 'commit_sha', 'payload', 'test_set_id', 'passed', 'failed', 'flaked', 'skipped', 'install_failed', 'parse_errors', 'meta', 'fingerprint', 'ingested_at'], runRows);
      for (let i = 0; i < outcomeRows.length; i += 50_000) await insertMany(sql, 'test_outcome', ['run_id', 'test_id', 'outcome', 'signature_id', 'started', 'job_id', 'message'], outcomeRows.slice(i, i + 50_000));
      await rollUpStored(
        sql,
        runRows.map((row) => ({ id: row[0] as number, jobId: row[1] as number, started: row[4] as number, testSetId: row[12] as number, broken: (row[14] as number) >= 20 })),
        outcomeRows.map((o) => ({ runId: o[0] as number, testId: o[1] as number, outcome: o[2] as number, signatureId: o[3] as number, started: o[4] as number, jobId: o[5] as number })),
      );
    });
    runRows = [];
    outcomeRows = [];
    setRows = [];
  };
  for (let day = 0; day < o.days; day++) {
    // two or three incidents a day: the mass failures of the day share their causes
    const todays = [int(r, 0, INCIDENTS - 1), int(r, 0, INCIDENTS - 1), int(r, 0, INCIDENTS - 1)];
    for (let j = 0; j < jobCount; j++) {
      // each job's suite drifts a little every day: a set per job per day
      const dropped = new Set(Array.from({ length: 40 + (j % 7) * 30 }, (_, k) => (j * 131 + k * 17 + day) % o.tests));
      const members = ids.filter((_, i) => !dropped.has(i));
      const enc = encodeTestSet([...members].sort((a, b) => a - b));
      const key = testSetHash(enc);
      if (!setIds.has(key)) {
        setIds.set(key, setIds.size + 1);
        setRows.push([setIds.size, key, members.length, enc]);
      }
      const setId = setIds.get(key)!;
      const jobName = jobNames[j];
      const release = RELEASES[j % RELEASES.length];
      for (let k = 0; k < perJobPerDay; k++) {
        runId++;
        const started = start + day * 86_400 + Math.floor(((k + r()) / perJobPerDay) * 86_400);
        const failed = new Map<number, [number, number]>(); // test index -> [outcome, signature]
        const mass = r() < 0.07 * density;
        if (mass) {
          const sig = incidentSig[todays[int(r, 0, todays.length - 1)]];
          for (let n = int(r, 450, 1300); n > 0; n--) failed.set(Math.floor(r() * o.tests), [1, sig]);
        }
        if (r() < Math.min(0.9, 0.35 * density)) for (let n = int(r, 1, Math.round(15 * density)); n > 0; n--) failed.set(pickTest(), [1, -1]);
        for (let n = Math.round(3 * density * r() * 2); n > 0; n--) {
          const t = pickTest();
          if (!failed.has(t)) failed.set(t, [2, -1]);
        }
        if (release === regressionRelease && started > start + o.days * 0.7 * 86_400 && r() < 0.4) failed.set(regression, [r() < 0.3 ? 2 : 1, -1]);
        if (j === brokenJob) failed.set(broken, [1, -1]);
        let f = 0;
        let fl = 0;
        for (const [t, [outcome, sig]] of failed) {
          if (dropped.has(t)) continue; // not in this job's suite
          if (outcome === 1) f++;
          else fl++;
          const kind = t % TEST_KINDS;
          const text = sig >= 0 ? massText(r, incidentSig.indexOf(sig)) : failureText(r, kind, t);
          outcomeRows.push([runId, ids[t], outcome, sig >= 0 ? sig : kindSig[kind], started, jobId.get(jobName)!, text]);
        }
        outcomes += f + fl;
        executed += members.length;
        runRows.push([runId, jobId.get(jobName)!, String(1_000_000 + runId), f > 0 ? 'failure' : 'success', started, started + 5400, `https://prow.example/view/gs/b/logs/${jobName}/${runId}`, `gs://b/logs/${jobName}/${runId}`, null, '', '', `${release}.0-0.nightly-${day}`, setId, members.length - f - fl, f, fl, o.tests - members.length, 0, 0, '{}', '', o.end]);
        if (outcomeRows.length >= 400_000) await flush();
      }
    }
    await flush();
    o.progress?.(day + 1, runId, outcomes);
  }
  if (db.dialect === 'postgres') {
    // explicit ids were inserted: move the sequences past them
    for (const t of ['run', 'test_set']) await db.run(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT MAX(id) FROM ${t}))`);
  }
  await db.run('ANALYZE');
  return { runs: runId, outcomes, executed, sets: setIds.size, jobs: jobNames, tests, regression: tests[regression], broken: tests[broken], brokenJob: jobNames[brokenJob] };
}
