// Writes each simulated run's GCS objects under gcs/<bucket>/ and returns its world.json record.
// started.json appears when the run starts; everything else when it finishes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BUCKET, REPLAY_PLACEHOLDER } from './catalog';
import { junitStamp } from './format';
import { buildLog } from './buildlog';
import { e2eJunit, operatorJunit } from './junit';
import { deckJobFor, finishedJson, prowJobFor, startedJson } from './prowjob';
import type { SimRun } from './runs';
import { GATHERED_BLOBS, GATHERED_PATHS } from './gathered';
import type { GatheredFile, WorldFile, WorldObject, WorldRun } from './types';

export function md5Base64(data: Buffer | string): string {
  return crypto.createHash('md5').update(data).digest('base64');
}

function gcsPathFor(run: SimRun): string {
  if (run.type === 'periodic') return `logs/${run.name}/${run.buildId}`;
  const pr = run.refs!.pulls[0].number;
  if (run.job.legacyPrPath) return `pr-logs/pull/${pr}/${run.name}/${run.buildId}`;
  return `pr-logs/pull/${run.refs!.org}_${run.refs!.repo}/${pr}/${run.name}/${run.buildId}`;
}

const DESCRIPTIONS: Record<WorldRun['state'], string> = {
  success: 'Job succeeded.',
  failure: 'Job failed.',
  aborted: 'Job aborted.',
  error: 'Pod got deleted unexpectedly',
};

/** The run's world.json record, without files. */
export function worldRunFor(run: SimRun): WorldRun {
  const gcsPath = gcsPathFor(run);
  return {
    job: run.name,
    buildId: run.buildId,
    type: run.job.type,
    state: run.state,
    started: run.started,
    finished: run.finished,
    prowJobId: run.prowJobId,
    podName: run.prowJobId,
    context: run.type === 'presubmit' ? `ci/prow/${run.job.ciTest}` : '',
    ciTest: run.job.ciTest,
    description: DESCRIPTIONS[run.state],
    refs: run.refs,
    extraRefs: run.type === 'periodic' ? [{ org: 'openshift', repo: 'release', base_ref: 'master', base_sha: '', pulls: [] }] : undefined,
    payload: run.payload,
    urlPath: `/view/gs/${BUCKET}/${gcsPath}`,
    bucket: BUCKET,
    gcsPath,
    files: [],
  };
}

export class ObjectWriter {
  private readonly made = new Set<string>();
  bytes = 0;
  count = 0;

  constructor(private readonly root: string) {}

  /** writes gs://<bucket>/<name> and returns its size and md5 */
  write(name: string, data: string | Buffer): { size: number; md5: string } {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const file = path.join(this.root, 'gcs', BUCKET, name);
    const dir = path.dirname(file);
    if (!this.made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      for (let d = dir; d.length > this.root.length && !this.made.has(d); d = path.dirname(d)) this.made.add(d);
    }
    fs.writeFileSync(file, buf);
    this.bytes += buf.length;
    this.count++;
    return { size: buf.length, md5: md5Base64(buf) };
  }

  /** writes bytes that many objects share (gathered files): their path in the world, size and md5 */
  blob(name: string, data: string): Omit<GatheredFile, 'path'> {
    const rel = `gcs-blobs/${name}`;
    fs.mkdirSync(path.join(this.root, 'gcs-blobs'), { recursive: true });
    fs.writeFileSync(path.join(this.root, rel), data);
    return { blob: rel, size: Buffer.byteLength(data), md5: md5Base64(data) };
  }
}

/** The manifest's gathered files, their blobs written once. */
export function writeGathered(out: ObjectWriter): GatheredFile[] {
  const blobs = new Map(Object.entries(GATHERED_BLOBS).map(([name, data]) => [name, out.blob(name, data)]));
  return GATHERED_PATHS.map((g) => ({ path: g.path, ...blobs.get(g.blob)! }));
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** Writes the run's objects; fills `wr.files`. Returns extra objects (pr-logs/directory aliases). */
export function writeRunArtifacts(run: SimRun, wr: WorldRun, out: ObjectWriter): WorldObject[] {
  const put = (rel: string, data: string, visibleAt: number, rewrite = false) => {
    const { size, md5 } = out.write(`${wr.gcsPath}/${rel}`, data);
    const f: WorldFile = { path: rel, visibleAt, size, md5 };
    if (rewrite) f.rewrite = true;
    wr.files.push(f);
  };
  // deepest folder first: one mkdir creates the run's whole tree
  if ((run.mode === 'normal' || run.mode === 'infra') && !run.noE2eJunit) {
    const rel = `artifacts/${run.job.ciTest}/openshift-e2e-test/artifacts/junit/junit_e2e_${junitStamp(run.e2eStart)}.xml`;
    put(rel, e2eJunit(run, !!run.job.junitWrapper), run.finished);
  }
  if (run.mode === 'normal' || run.mode === 'infra' || run.mode === 'install') {
    put('artifacts/junit_operator.xml', operatorJunit(run), run.finished);
    wr.gathered = true; // its steps ran and gathered what they do
  }
  put('started.json', json(startedJson(wr)), run.started);
  // the ProwJob as it was when the run finished; the server swaps in its own URL
  put('prowjob.json', json(prowJobFor(wr, run.finished, REPLAY_PLACEHOLDER)), run.finished, true);
  if (run.mode !== 'error') {
    put('finished.json', json(finishedJson(wr, run.namespace)), run.finished);
    put('build-log.txt', buildLog(run), run.finished);
  }
  wr.files.sort((a, b) => (a.path < b.path ? -1 : 1));
  if (run.type !== 'presubmit') return [];
  const alias = `pr-logs/directory/${run.name}/${run.buildId}.txt`;
  const { size, md5 } = out.write(alias, `gs://${BUCKET}/${wr.gcsPath}`);
  return [{ name: alias, visibleAt: run.started, size, md5 }];
}

/** deck/jobs.json: one current-format data.js record per run, as of its end. */
export function deckJobsFile(runs: WorldRun[]): string {
  const records = [...runs].sort((a, b) => b.started - a.started || (a.job < b.job ? -1 : 1)).map((r) => deckJobFor(r, r.finished, REPLAY_PLACEHOLDER));
  return json(records);
}
