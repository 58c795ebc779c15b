// Prow's views of a run: the ProwJob object (prowjob.json, prowjobs.js), Deck's data.js record in the
// current and the 2019 field sets, and the pod-utils started.json / finished.json. Shared by the
// generator (which writes them as of the run's end) and the replay server (which renders them as of
// any `now`). Field names and encodings follow sigs.k8s.io/prow (see SOURCES.md section 1 and 2).
import { goDuration, rfc3339 } from './format';
import type { WorldRefs, WorldRun } from './types';

export type ShownState = WorldRun['state'] | 'pending';

export function stateAt(run: WorldRun, now: number): ShownState {
  return run.finished > now ? 'pending' : run.state;
}

function refsKey(r: WorldRefs): string {
  return [`${r.base_ref}:${r.base_sha}`, ...r.pulls.map((p) => `${p.number}:${p.sha}`)].join(',');
}

function linkedRefs(r: WorldRefs): Record<string, unknown> {
  const repoLink = `https://github.com/${r.org}/${r.repo}`;
  const out: Record<string, unknown> = { org: r.org, repo: r.repo, repo_link: repoLink, base_ref: r.base_ref };
  if (r.base_sha) {
    out.base_sha = r.base_sha;
    out.base_link = `${repoLink}/commit/${r.base_sha}`;
  }
  if (r.pulls.length) {
    out.pulls = r.pulls.map((p) => ({
      number: p.number,
      author: p.author,
      sha: p.sha,
      link: `${repoLink}/pull/${p.number}`,
      commit_link: `${repoLink}/pull/${p.number}/commits/${p.sha}`,
      author_link: `https://github.com/${p.author}`,
    }));
  }
  return out;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Prow drops label values Kubernetes would reject (longer than 63 characters, for instance). */
function validLabels(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([, v]) => v.length <= 63 && LABEL_VALUE.test(v)));
}

function description(state: ShownState, run: WorldRun): string {
  return state === 'pending' ? 'Job triggered.' : run.description;
}

export function spyglassUrl(run: WorldRun, baseUrl: string): string {
  return `${baseUrl}${run.urlPath}`;
}

/** The ProwJob as the cluster holds it at `now`. */
export function prowJobFor(run: WorldRun, now: number, baseUrl: string): Record<string, unknown> {
  const state = stateAt(run, now);
  const refs = run.refs ?? run.extraRefs?.[0];
  const labels: Record<string, string> = {
    'created-by-prow': 'true',
    'prow.k8s.io/build-id': run.buildId,
    'prow.k8s.io/id': run.prowJobId,
    'prow.k8s.io/job': run.job,
    'prow.k8s.io/type': run.type,
  };
  if (run.type === 'presubmit') labels['prow.k8s.io/context'] = run.context;
  if (refs) {
    labels['prow.k8s.io/refs.org'] = refs.org;
    labels['prow.k8s.io/refs.repo'] = refs.repo;
    labels['prow.k8s.io/refs.base_ref'] = refs.base_ref;
    if (refs.pulls[0]) labels['prow.k8s.io/refs.pull'] = String(refs.pulls[0].number);
  }
  const env = run.payload ? [{ name: 'RELEASE_IMAGE_LATEST', value: `registry.ci.openshift.org/ocp/release:${run.payload}` }] : [];
  const spec: Record<string, unknown> = {
    type: run.type,
    agent: 'kubernetes',
    cluster: 'build01',
    namespace: 'ci',
    job: run.job,
  };
  if (run.refs) spec.refs = linkedRefs(run.refs);
  if (run.extraRefs) spec.extra_refs = run.extraRefs.map(linkedRefs);
  if (run.type === 'presubmit') {
    spec.report = true;
    spec.context = run.context;
    spec.rerun_command = `/test ${run.ciTest}`;
  }
  spec.pod_spec = {
    volumes: [{ name: 'pull-secret', secret: { secretName: 'registry-pull-credentials' } }],
    containers: [
      {
        name: '',
        image: 'ci-operator:latest',
        command: ['ci-operator'],
        args: ['--gcs-upload-secret=/secrets/gcs/service-account.json', '--image-import-pull-secret=/etc/pull-secret/.dockerconfigjson', '--report-credentials-file=/etc/report/credentials', `--target=${run.ciTest}`],
        env,
        resources: { requests: { cpu: '10m' } },
        imagePullPolicy: 'Always',
      },
    ],
    serviceAccountName: 'ci-operator',
  };
  spec.decoration_config = {
    timeout: '4h0m0s',
    grace_period: '1h0m0s',
    gcs_configuration: { bucket: run.bucket, path_strategy: 'single', default_org: 'openshift', default_repo: 'origin', mediaTypes: { log: 'text/plain' } },
    gcs_credentials_secret: 'gce-sa-credentials-gcs-publisher',
    skip_cloning: true,
  };
  spec.prowjob_defaults = { tenant_id: 'GlobalDefaultID' };
  const status: Record<string, unknown> = {
    startTime: rfc3339(run.started),
    pendingTime: rfc3339(Math.min(run.started + 7, run.finished)),
  };
  if (state !== 'pending') status.completionTime = rfc3339(run.finished);
  status.state = state;
  status.description = description(state, run);
  status.url = spyglassUrl(run, baseUrl);
  status.pod_name = run.podName;
  status.build_id = run.buildId;
  if (state !== 'pending') status.prev_report_states = { 'gcsk8sreporter': state, 'gcsreporter': state };
  return {
    kind: 'ProwJob',
    apiVersion: 'prow.k8s.io/v1',
    metadata: {
      name: run.prowJobId,
      namespace: 'ci',
      creationTimestamp: rfc3339(run.started),
      labels: validLabels(labels),
      annotations: { 'prow.k8s.io/context': run.type === 'presubmit' ? run.context : '', 'prow.k8s.io/job': run.job },
    },
    spec,
    status,
  };
}

/** Deck's data.js element, current field set (pkg/deck/jobs/jobs.go Job). */
export function deckJobFor(run: WorldRun, now: number, baseUrl: string): Record<string, unknown> {
  const state = stateAt(run, now);
  const done = state !== 'pending';
  return {
    type: run.type,
    refs: run.refs ? linkedRefs(run.refs) : { org: '', repo: '' },
    refs_key: run.refs ? refsKey(run.refs) : '',
    job: run.job,
    build_id: run.buildId,
    context: run.type === 'presubmit' ? run.context : '',
    started: String(run.started),
    finished: done ? rfc3339(run.finished) : '',
    duration: done ? goDuration(run.finished - run.started) : '',
    state,
    description: description(state, run),
    url: spyglassUrl(run, baseUrl),
    pod_name: run.podName,
    agent: 'kubernetes',
    prow_job: run.prowJobId,
  };
}

/** Turns a current data.js record into the 2017–Jan 2019 field set (refs as a string; single-pull fields). */
export function deckJob2019(job: Record<string, unknown>): Record<string, unknown> {
  const refs = job.refs as { org: string; repo: string; base_ref?: string; base_sha?: string; pulls?: { number: number; author: string; sha: string }[] };
  const single = refs.pulls && refs.pulls.length === 1 ? refs.pulls[0] : undefined;
  return {
    type: job.type,
    repo: refs.org ? `${refs.org}/${refs.repo}` : '',
    refs: job.refs_key,
    base_ref: refs.base_ref ?? '',
    base_sha: refs.base_sha ?? '',
    pull_sha: single?.sha ?? '',
    number: single?.number ?? 0,
    author: single?.author ?? '',
    job: job.job,
    build_id: job.build_id,
    context: job.context,
    started: job.started,
    finished: job.finished,
    duration: job.duration,
    state: job.state,
    description: job.description,
    url: job.url,
    pod_name: job.pod_name,
    agent: job.agent,
    prow_job: job.prow_job,
  };
}

/** pod-utils started.json */
export function startedJson(run: WorldRun): Record<string, unknown> {
  const out: Record<string, unknown> = { timestamp: run.started };
  if (run.refs) {
    out.pull = String(run.refs.pulls[0].number);
    out.repos = { [`${run.refs.org}/${run.refs.repo}`]: refsKey(run.refs) };
    out['repo-version'] = run.refs.pulls[0].sha;
  } else {
    out.repos = Object.fromEntries((run.extraRefs ?? []).map((r) => [`${r.org}/${r.repo}`, r.base_ref]));
    out['repo-version'] = '';
  }
  out.Pending = false;
  return out;
}

/** pod-utils finished.json */
export function finishedJson(run: WorldRun, workNamespace: string): Record<string, unknown> {
  const result = run.state === 'success' ? 'SUCCESS' : run.state === 'aborted' ? 'ABORTED' : 'FAILURE';
  const metadata: Record<string, string> = { 'work-namespace': workNamespace };
  if (run.payload) metadata['job-version'] = run.payload;
  return {
    timestamp: run.finished,
    passed: run.state === 'success',
    result,
    revision: run.refs?.pulls[0]?.sha ?? '',
    metadata,
  };
}
