import { describe, expect, it } from 'vitest';
import {
  gcsLocationFromUrl, jobUrlFor, parseDeckJobs, parseFinished, parseProwJobsJs, parseStarted, payloadFromProwJob,
  prowRunFromProwJob, pullNumber, refsFromString, refsToString, toUnixSeconds,
} from '../../lib/parse/prowMetadata';
import { describeFixtures, readFixture } from '../fixtures';

// No real data.js / prowjobs.js was found (SOURCES.md "Not found"); these follow the field lists of
// SOURCES.md section 1 (Deck Job, current and 2019 forms; ProwJob metadata/spec/status).
const BASE_SHA = '5feab0aa1e592ab413b461bc3ad08a6b74a427b4';
const PULL_SHA = '5dd9241d43f256984358354d1fec468f274f9ac4';
const STARTED = 1595277241; // 2020-07-20T20:34:01Z

const currentJob = {
  type: 'presubmit',
  refs: {
    org: 'openshift', repo: 'origin', repo_link: 'https://github.com/openshift/origin', base_ref: 'master', base_sha: BASE_SHA,
    pulls: [{ number: 93264, author: 'alice', sha: PULL_SHA, title: 'Fix it', ref: 'refs/pull/93264/head', link: 'https://github.com/openshift/origin/pull/93264' }],
  },
  refs_key: `master:${BASE_SHA},93264:${PULL_SHA}`,
  job: 'pull-ci-openshift-origin-master-e2e-aws',
  build_id: '1285020536223387648',
  context: 'ci/prow/e2e-aws',
  started: String(STARTED),
  finished: '2020-07-20T21:10:34.123456789Z',
  duration: '36m33s',
  state: 'success',
  description: 'Job succeeded.',
  url: 'https://prow.ci.openshift.org/view/gs/origin-ci-test/pr-logs/pull/93264/pull-ci-openshift-origin-master-e2e-aws/1285020536223387648',
  pod_name: '2e2a5b6c-cad0-11ea-9c1c-0a580a80042a',
  agent: 'kubernetes',
  prow_job: '2e2a5b6c-cad0-11ea-9c1c-0a580a80042a',
};

const job2019 = {
  type: 'presubmit', repo: 'openshift/origin', refs: `master:${BASE_SHA},22834:${PULL_SHA}`, base_ref: 'master', base_sha: BASE_SHA,
  pull_sha: PULL_SHA, number: 22834, author: 'bob', job: 'pull-ci-openshift-origin-master-e2e-aws', build_id: '8001',
  context: 'ci/prow/e2e-aws', started: '1556705472', finished: '', duration: '', state: 'pending', description: 'Job triggered.',
  url: 'https://prow.svc.ci.openshift.org/view/gcs/origin-ci-test/pr-logs/pull/22834/pull-ci-openshift-origin-master-e2e-aws/8001',
  pod_name: '', agent: 'kubernetes', prow_job: 'c2b8a7d4-6b9e-11e9-9f8e-0a58ac10a1b2',
};

const periodic2019 = {
  type: 'periodic', repo: '', refs: '', job: 'release-openshift-origin-installer-e2e-aws-upgrade-4.1-to-4.2', build_id: '120',
  started: 1556705000, finished: '2019-05-01T11:00:00Z', state: 'failure', url: '', agent: 'kubernetes', prow_job: 'x',
};

describe('parseDeckJobs', () => {
  it('reads the current Job form', () => {
    const [run] = parseDeckJobs(JSON.stringify([currentJob]));
    expect(run).toEqual({
      job: 'pull-ci-openshift-origin-master-e2e-aws',
      buildId: '1285020536223387648',
      type: 'presubmit',
      state: 'success',
      started: STARTED,
      finished: STARTED + 36 * 60 + 33,
      url: currentJob.url,
      refs: { org: 'openshift', repo: 'origin', baseRef: 'master', baseSha: BASE_SHA, pulls: [{ number: 93264, author: 'alice', sha: PULL_SHA }] },
      prowJobId: currentJob.prow_job,
    });
  });

  it('reads the 2019 form (refs as a string, repo/number/author/pull_sha) and running jobs', () => {
    const [run, periodic] = parseDeckJobs(JSON.stringify([job2019, periodic2019]));
    expect(run.refs).toEqual({ org: 'openshift', repo: 'origin', baseRef: 'master', baseSha: BASE_SHA, pulls: [{ number: 22834, sha: PULL_SHA, author: 'bob' }] });
    expect(run.state).toBe('pending');
    expect(run.finished).toBeUndefined();
    expect(run.started).toBe(1556705472);
    expect(periodic.refs).toBeUndefined();
    expect(periodic.started).toBe(1556705000);
    expect(periodic.finished).toBe(Date.UTC(2019, 4, 1, 11) / 1000);
  });

  it('accepts the `var NAME = [...];` JavaScript form', () => {
    const js = `var allBuilds = ${JSON.stringify([currentJob, job2019])};\n`;
    expect(parseDeckJobs(js)).toEqual(parseDeckJobs(JSON.stringify([currentJob, job2019])));
    expect(parseDeckJobs('\uFEFFvar b=[];')).toEqual([]);
  });

  it('skips junk entries, maps unknown states', () => {
    const runs = parseDeckJobs(JSON.stringify([null, 42, 'x', {}, { job: 'only-job' }, { build_id: '1' }, { job: 'j', build_id: 7, state: 'weird', finished: '2020-01-01T00:00:00Z' }, { job: 'k', build_id: '8', state: 'weird' }]));
    expect(runs.map((r) => [r.job, r.buildId, r.state, r.started, r.url])).toEqual([['j', '7', 'error', 0, ''], ['k', '8', 'pending', 0, '']]);
  });

  it('throws a clear error when the text is not a JSON array', () => {
    expect(() => parseDeckJobs('<!DOCTYPE html><html><body>Bad Gateway</body></html>')).toThrow(/^data\.js: not valid JSON .*it starts with "<!DOCTYPE html>/);
    expect(() => parseDeckJobs(JSON.stringify([currentJob]).slice(0, 300))).toThrow(/^data\.js: not valid JSON/);
    expect(() => parseDeckJobs('{"items":[]}')).toThrow('data.js: expected a JSON array of jobs, got object');
    expect(() => parseDeckJobs('')).toThrow(/^data\.js: not valid JSON/);
  });
});

const RELEASE_TAG = '4.2.0-0.nightly-2026-11-25-120000';
const prowJob = {
  apiVersion: 'prow.k8s.io/v1',
  kind: 'ProwJob',
  metadata: {
    name: '0f1e2d3c-4b5a-11ef-8a9b-0a580a800123',
    namespace: 'ci',
    creationTimestamp: '2026-11-25T12:29:58Z',
    labels: {
      'created-by-prow': 'true',
      'prow.k8s.io/job': 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade',
      'prow.k8s.io/type': 'periodic',
      'prow.k8s.io/build-id': '1861234567890123776',
    },
    annotations: { 'prow.k8s.io/job': 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade', 'release.openshift.io/tag': 'from-annotation' },
  },
  spec: {
    type: 'periodic', agent: 'kubernetes', cluster: 'build01', namespace: 'ci', job: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade',
    report: true,
    pod_spec: {
      containers: [{
        command: ['ci-operator'], args: ['--target=e2e-aws-upgrade'], image: 'ci-operator:latest',
        env: [
          { name: 'RELEASE_IMAGE_INITIAL', value: 'registry.ci.openshift.org/ocp/release@sha256:' + 'ab'.repeat(32) },
          { name: 'RELEASE_IMAGE_LATEST', value: `registry.ci.openshift.org/ocp/release:${RELEASE_TAG}` },
        ],
      }],
    },
  },
  status: {
    startTime: '2026-11-25T12:30:00Z', pendingTime: '2026-11-25T12:30:05Z', completionTime: '2026-11-25T14:01:02Z', state: 'failure',
    description: 'Job failed.', url: 'https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade/1861234567890123776',
    pod_name: '0f1e2d3c-4b5a-11ef-8a9b-0a580a800123', build_id: '1861234567890123776',
  },
};

describe('ProwJob objects', () => {
  it('prowRunFromProwJob reads spec, status and metadata', () => {
    expect(prowRunFromProwJob(prowJob)).toEqual({
      job: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade',
      buildId: '1861234567890123776',
      type: 'periodic',
      state: 'failure',
      started: Date.UTC(2026, 10, 25, 12, 30) / 1000,
      finished: Date.UTC(2026, 10, 25, 14, 1, 2) / 1000,
      url: prowJob.status.url,
      prowJobId: prowJob.metadata.name,
    });
  });

  it('falls back to labels for the build id and the job, and reads refs with pulls', () => {
    const pj = {
      metadata: { name: 'n', labels: { 'prow.k8s.io/build-id': '55', 'prow.k8s.io/job': 'pull-x' } },
      spec: { type: 'presubmit', refs: { org: 'o', repo: 'r', base_ref: 'main', base_sha: 'abc', pulls: [{ number: 7, author: 'a', sha: 'def' }, { number: 'x' }] } },
      status: { state: 'pending', startTime: '2026-01-01T00:00:00Z' },
    };
    const run = prowRunFromProwJob(pj);
    expect(run).toMatchObject({ job: 'pull-x', buildId: '55', state: 'pending', refs: { org: 'o', repo: 'r', baseRef: 'main', baseSha: 'abc', pulls: [{ number: 7, author: 'a', sha: 'def' }] } });
    expect(run?.finished).toBeUndefined();
    expect(prowRunFromProwJob({ spec: { job: 'j' }, status: {} })).toBeUndefined();
    expect(prowRunFromProwJob(null)).toBeUndefined();
    expect(prowRunFromProwJob([prowJob])).toBeUndefined();
  });

  it('parseProwJobsJs reads {"items":[...]} and its var form, skipping unusable items', () => {
    const body = JSON.stringify({ items: [prowJob, { metadata: {} }, 3] });
    expect(parseProwJobsJs(body)).toEqual([prowRunFromProwJob(prowJob)]);
    expect(parseProwJobsJs(`var allBuilds = ${body};`)).toEqual(parseProwJobsJs(body));
    expect(() => parseProwJobsJs('[]')).toThrow('prowjobs.js: expected a JSON object with an "items" array');
    expect(() => parseProwJobsJs('<html>')).toThrow(/^prowjobs\.js: not valid JSON/);
  });

  it('payloadFromProwJob: RELEASE_IMAGE_LATEST, else RELEASE_IMAGE_INITIAL, else the release tag annotation', () => {
    expect(payloadFromProwJob(prowJob)).toBe(RELEASE_TAG);
    const withEnv = (env: unknown[]): unknown => ({ ...prowJob, spec: { ...prowJob.spec, pod_spec: { containers: [{ env }] } } });
    expect(payloadFromProwJob(withEnv([{ name: 'RELEASE_IMAGE_INITIAL', value: 'quay.io/openshift-release-dev/ocp-release@sha256:' + 'cd'.repeat(32) }])))
      .toBe('sha256:' + 'cd'.repeat(32));
    expect(payloadFromProwJob(withEnv([{ name: 'RELEASE_IMAGE_LATEST', value: 'registry:5000/ocp/release' }]))).toBe('from-annotation');
    expect(payloadFromProwJob(withEnv([]))).toBe('from-annotation');
    expect(payloadFromProwJob({ spec: { pod_spec: { containers: [{}] } } })).toBeUndefined();
    expect(payloadFromProwJob('nope')).toBeUndefined();
  });
});

describe('refs strings', () => {
  it('parses base, pulls and the optional :ref suffix', () => {
    expect(refsFromString(`master:${BASE_SHA},93264:${PULL_SHA}`)).toEqual({ baseRef: 'master', baseSha: BASE_SHA, pulls: [{ number: 93264, sha: PULL_SHA }] });
    expect(refsFromString('release-4.2:aaa,1:bbb:refs/pull/1/head,2:ccc')).toEqual({
      baseRef: 'release-4.2', baseSha: 'aaa', pulls: [{ number: 1, sha: 'bbb' }, { number: 2, sha: 'ccc' }],
    });
    expect(refsFromString('master')).toEqual({ baseRef: 'master', pulls: [] });
    expect(refsFromString('')).toEqual({ pulls: [] });
    expect(refsFromString('master:a,notanumber:b')).toEqual({ baseRef: 'master', baseSha: 'a', pulls: [] });
  });

  it('refsToString is the inverse (without pull refs)', () => {
    for (const s of [`master:${BASE_SHA},93264:${PULL_SHA}`, 'master', `main:${BASE_SHA}`, 'master:a,1:b,2:c']) {
      expect(refsToString(refsFromString(s))).toBe(s);
    }
    expect(refsToString(refsFromString('master:a,1:b:refs/pull/1/head'))).toBe('master:a,1:b');
  });
});

describe('GCS locations', () => {
  const loc = { bucket: 'origin-ci-test', path: 'logs/periodic-ci-x/123' };
  it('reads Spyglass URLs, gs:// strings and tolerates decorations', () => {
    for (const url of [
      'https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/periodic-ci-x/123',
      'https://prow.svc.ci.openshift.org/view/gcs/origin-ci-test/logs/periodic-ci-x/123/',
      'https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/periodic-ci-x/123?foo=bar#l10',
      ' gs://origin-ci-test/logs/periodic-ci-x/123/ ',
      'http://127.0.0.1:8080/prefix/view/gs/origin-ci-test/logs/periodic-ci-x/123',
    ]) expect(gcsLocationFromUrl(url)).toEqual(loc);
  });

  it('returns undefined for anything else', () => {
    for (const url of ['', 'https://prow.ci.openshift.org/', 'https://prow.ci.openshift.org/view/gs/bucket', 'https://prow.ci.openshift.org/view/gs/bucket/',
      'https://storage.googleapis.com/origin-ci-test/logs/x/1', 'gs://', 'not a url /view/gs/b/p', undefined as unknown as string]) {
      expect(gcsLocationFromUrl(url)).toBeUndefined();
    }
  });

  it('jobUrlFor builds the Spyglass URL', () => {
    expect(jobUrlFor('https://prow.ci.openshift.org/', loc)).toBe('https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/periodic-ci-x/123');
  });
});

describeFixtures('metadata from the real files', () => {
  const urls = (): { url: string; job: string }[] => {
    const rows = JSON.parse(readFixture('release-controller/bquxjob_65df743f_19de556b6a3.json')) as { prowjob_url: string; prowjob_job_name: string }[];
    const fromRc = [...readFixture('release-controller/OCPCRT-74-pr-test.json').matchAll(/"url": *"(https:[^"]+\/view\/[^"]+)"/g)].map((m) => m[1]);
    return [...rows.map((r) => ({ url: r.prowjob_url, job: r.prowjob_job_name })), ...fromRc.map((url) => ({ url, job: '' }))];
  };

  it('every prow URL of the release-controller files gives a location that round-trips', () => {
    const all = urls();
    expect(all.length).toBeGreaterThan(200);
    for (const { url, job } of all) {
      const loc = gcsLocationFromUrl(url);
      expect(loc, url).toBeDefined();
      expect(loc?.path).toMatch(/^logs\/[^/]+\/\d+$/);
      if (job) expect(loc?.path.split('/')[1]).toBe(job);
      expect(jobUrlFor(url.slice(0, url.indexOf('/view/')), loc!)).toBe(url);
    }
  });

  it('the Spyglass link of the prow docs example', () => {
    expect(gcsLocationFromUrl('https://prow.k8s.io/view/gcs/kubernetes-jenkins/pr-logs/pull/93714/pull-kubernetes-node-e2e/1291409525907132416/'))
      .toEqual({ bucket: 'kubernetes-jenkins', path: 'pr-logs/pull/93714/pull-kubernetes-node-e2e/1291409525907132416' });
  });

  it('parseStarted reads bootstrap and pod-utils started.json', () => {
    for (const file of ['started.bootstrap.json', 'started.podutils.json']) {
      const text = readFixture(`gcs-artifacts/extracted-from-prow-docs/${file}`);
      const raw = JSON.parse(text);
      const started = parseStarted(text);
      expect(started.timestamp).toBe(raw.timestamp);
      expect(started.pull).toBe(raw.pull);
      expect(started.repos).toEqual(raw.repos);
    }
    const boot = parseStarted(readFixture('gcs-artifacts/extracted-from-prow-docs/started.bootstrap.json'));
    expect(boot.jobVersion).toBe('v1.20.0-alpha.0.261+06ea384605f172');
    expect(refsFromString(boot.repos!['k8s.io/kubernetes']).pulls.map((p) => p.number)).toEqual([93063]);
    const pod = parseStarted(readFixture('gcs-artifacts/extracted-from-prow-docs/started.podutils.json'));
    expect(pod.metadata).toHaveProperty('links');
    expect(refsToString(refsFromString(pod.repos!['kubernetes/kubernetes']))).toBe(pod.repos!['kubernetes/kubernetes']);
  });

  it('parseFinished reads bootstrap and pod-utils finished.json', () => {
    const boot = parseFinished(readFixture('gcs-artifacts/extracted-from-prow-docs/finished.bootstrap.json'));
    expect(boot).toMatchObject({ timestamp: 1596732481, passed: true, result: 'SUCCESS', revision: 'v1.20.0-alpha.0.519+e825f0a86103a6' });
    expect(boot.metadata?.['repo-commit']).toBe('e825f0a86103a6de00ebd20e158274c4fa625a34');
    const pod = parseFinished(readFixture('gcs-artifacts/extracted-from-prow-docs/finished.podutils.json'));
    expect(pod).toEqual({ timestamp: 1595279434, passed: true, result: 'SUCCESS', revision: '5dd9241d43f256984358354d1fec468f274f9ac4' });
  });
});

describe('started.json / finished.json edge cases', () => {
  it('accepts string timestamps and derives passed from result', () => {
    expect(parseStarted('{"timestamp":"1595277241","repo-commit":"abc"}')).toEqual({ timestamp: 1595277241, repoCommit: 'abc' });
    expect(parseFinished('{"timestamp":"1595279434","result":"FAILURE"}')).toEqual({ timestamp: 1595279434, result: 'FAILURE', passed: false });
    expect(parseFinished('{}')).toEqual({});
  });

  it('keeps whole seconds of plausible times only, and pull numbers that fit their column', () => {
    expect([1595277241.9, '1595277241.5', '2020-07-20T20:34:01.700Z'].map(toUnixSeconds)).toEqual([STARTED, STARTED, STARTED]);
    // garbage a database column or a page's date formatting would refuse: the time is unknown
    for (const v of [1e20, '99999999999999999999', 2 ** 53, '10000-01-01T00:00:00Z', -5, 0.5, 'NaN']) expect(toUnixSeconds(v)).toBeUndefined();
    expect(toUnixSeconds('9999-12-31T23:59:59Z')).toBe(253_402_300_799);
    expect([23492, '23492', 2 ** 31 - 1].map(pullNumber)).toEqual([23492, 23492, 2 ** 31 - 1]);
    for (const v of [2 ** 31, 1e20, '99999999999', 0, -1, 1.5, '1.5']) expect(pullNumber(v)).toBeUndefined();
    expect(parseStarted('{"timestamp":1e20,"pull":"99999999999"}')).toEqual({ pull: '99999999999' });
  });

  it('throws clear errors on invalid JSON', () => {
    expect(() => parseStarted('{"timestamp": 15952')).toThrow(/^started\.json: not valid JSON/);
    expect(() => parseFinished('<html>')).toThrow(/^finished\.json: not valid JSON .*it starts with "<html>"/);
    expect(() => parseFinished('[1]')).toThrow('finished.json: expected a JSON object, got an array');
    expect(() => parseStarted('null')).toThrow('started.json: expected a JSON object, got null');
  });
});
