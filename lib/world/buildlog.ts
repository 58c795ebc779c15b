// build-log.txt: ci-operator's step log around the openshift-tests output (SOURCES.md section 4,
// openshift/origin pkg/test/ginkgo/status.go and cmd_runsuite.go).
import { ciOperatorTime, goDuration, goQuote, junitStamp, statusTime, testDuration } from './format';
import type { SimRun, SimTest } from './runs';

interface Event {
  at: number;
  order: number;
  text: (s: Counters) => string;
}

interface Counters {
  failures: number;
  index: number;
  total: number;
}

/** the per-test lines of openshift-tests, in time order, with the (failures/index/total) counters */
function testLines(run: SimRun): string[] {
  const events: Event[] = [];
  let order = 0;
  const add = (t: SimTest, attempt: number) => {
    const e = t.execs[attempt];
    events.push({
      at: e.start,
      order: order++,
      text: (c) => {
        if (c.index < c.total) c.index++;
        else {
          c.index++;
          c.total++;
        }
        return `started: (${c.failures}/${c.index}/${c.total}) ${goQuote(t.name)}\n\n`;
      },
    });
    events.push({
      at: e.end,
      order: order++,
      text: (c) => {
        const tail = `(${testDuration(e.end - e.start)}) ${statusTime(e.end)} ${goQuote(t.name)}\n\n`;
        if (e.result === 'passed') return `passed: ${tail}`;
        if (e.result === 'skipped') return `${skipLine(e.text)}skipped: ${tail}`;
        c.failures++;
        return `${e.text ?? ''}\n\nfailed: ${tail}`;
      },
    });
  };
  for (const t of run.e2e) add(t, 0);
  const counters: Counters = { failures: 0, index: 0, total: run.e2e.length };
  const out: string[] = [];
  const flush = () => {
    events.sort((a, b) => a.at - b.at || a.order - b.order);
    for (const ev of events) out.push(ev.text(counters));
    events.length = 0;
  };
  flush();
  if (run.retried) {
    const retries = run.e2e.filter((t) => t.execs.length > 1);
    out.push(`Retry count: ${retries.length}\n`);
    for (const t of retries) add(t, 1);
    flush();
    const flaky = retries.filter((t) => t.outcome === 'flaked').map((t) => t.name).sort();
    if (flaky.length) out.push(`Flaky tests:\n\n${flaky.join('\n')}\n\n`);
  }
  return out;
}

function skipLine(text: string | undefined): string {
  return text ? `${text}\n\n` : '';
}

/** klog prefix: I1120 10:11:12.000000 */
function klogTime(t: number): string {
  return `I${junitStamp(t).slice(4, 8)} ${ciOperatorTime(Math.floor(t)).slice(11)}.${String(Math.floor((t % 1) * 1e6)).padStart(6, '0')}`;
}

const REGIONS = { aws: 'us-east-1', gcp: 'us-east1', azure: 'centralus' };

function ts(t: number): string {
  return ciOperatorTime(Math.floor(t));
}

function header(run: SimRun): string[] {
  const t = run.started + 2;
  const lines = [`${ts(t)} ci-operator version v20191120-8e3b2e5`];
  if (run.refs) {
    const p = run.refs.pulls[0];
    lines.push(`${ts(t)} Resolved source https://github.com/${run.refs.org}/${run.refs.repo} to master@${run.refs.base_sha.slice(0, 8)}, merging: #${p.number} ${p.sha.slice(0, 8)} @${p.author}`);
  } else {
    lines.push(`${ts(t)} No source defined`);
  }
  lines.push(
    `${ts(t + 1)} Using namespace https://console.build01.ci.openshift.org/k8s/cluster/projects/${run.namespace}`,
    `${ts(t + 1)} Running [input:ocp_builder_rhel-7-golang-1.12], [release:latest], ${run.job.ciTest}`,
  );
  if (run.payload) lines.push(`${ts(t + 40)} Imported release ${run.payload} to tag release:latest`);
  else lines.push(`${ts(t + 40)} Created release image "latest" containing all images built by this job`);
  if (run.job.kind === 'promotion') lines.push(`Will promote sha256:${run.candidateDigest}, current is sha256:${run.promoteCurrent}`);
  lines.push(`${ts(t + 45)} Acquired 1 lease(s) for ${run.job.platform}-quota-slice: [${REGIONS[run.job.platform]}--${run.job.platform}-quota-slice-${(run.seq % 40) + 1}]`, `${ts(t + 46)} Running multi-stage test ${run.job.ciTest}`);
  return lines;
}

function step(run: SimRun, name: string, from: number, to: number, ok: boolean): [string, string] {
  const full = `${run.job.ciTest}-${name}`;
  return [`${ts(from)} Running step ${full}.`, `${ts(to)} Step ${full} ${ok ? 'succeeded' : 'failed'} after ${goDuration(Math.round(to - from))}.`];
}

export function buildLog(run: SimRun): string {
  const ci = run.job.ciTest;
  const out: string[] = header(run);
  const confEnd = run.started + 70;
  out.push(...step(run, 'ipi-conf', run.started + 50, confEnd, true));
  const installEnd = run.mode === 'install' ? run.finished - 9 * 60 : run.e2eStart - 30;
  const [installStart, installDone] = step(run, 'ipi-install-install', confEnd + 1, installEnd, run.mode !== 'install');
  out.push(installStart, 'level=info msg="Consuming Install Config from target directory"', 'level=info msg="Creating infrastructure resources..."');
  if (run.mode === 'install') {
    out.push(`level=error msg="Error: timeout while waiting for state to become 'DONE' (last state: 'RUNNING', timeout: 4m0s)"`, `level=fatal msg=${JSON.stringify(run.installError)}`, installDone);
    out.push(...step(run, 'gather-must-gather', installEnd + 2, installEnd + 120, true), ...step(run, 'ipi-deprovision-deprovision', installEnd + 121, run.finished - 20, true));
    out.push(`${ts(run.finished - 15)} Releasing leases for test ${ci}`, `${ts(run.finished - 5)} Ran for ${goDuration(run.finished - 5 - run.started)}`, 'error: some steps failed:');
    out.push(`  * could not run steps: step ${ci} failed: "${ci}" pre steps failed: "${ci}" pod "${ci}-ipi-install-install" failed: the pod ${run.namespace}/${ci}-ipi-install-install failed after ${goDuration(installEnd - confEnd)} (failed containers: test): ContainerFailed one or more containers exited`);
    return out.join('\n') + '\n';
  }
  const abortedEarly = run.mode === 'aborted' && run.finished < run.e2eStart + 60;
  if (!abortedEarly) {
    out.push('level=info msg="Waiting up to 20m0s for the Kubernetes API at https://' + run.apiHost + ':6443..."', 'level=info msg="Install complete!"', installDone);
    out.push(`${ts(run.e2eStart - 20)} Running step ${ci}-openshift-e2e-test.`);
    out.push(`${klogTime(run.e2eStart)}      17 test_context.go:419] Tolerating taints "node-role.kubernetes.io/master" when considering if nodes are ready`);
  }
  if (run.mode === 'aborted') {
    out.push(
      `{"component":"entrypoint","file":"sigs.k8s.io/prow/pkg/entrypoint/run.go:169","func":"sigs.k8s.io/prow/pkg/entrypoint.Options.ExecuteProcess","level":"error","msg":"Entrypoint received interrupt: terminated","severity":"error","time":"${statusTime(run.finished - 30)}Z"}`,
      `${ts(run.finished - 29)} Received signal.`,
      'error: Process interrupted with signal interrupt, cancelling execution...',
      `${ts(run.finished - 5)} Ran for ${goDuration(run.finished - 5 - run.started)}`,
    );
    return out.join('\n') + '\n';
  }
  const stamp = junitStamp(run.e2eStart);
  out.push(...testLines(run).join('').replace(/\n$/, '').split('\n'));
  const failing = [...new Set(run.e2e.filter((t) => t.outcome === 'failed').map((t) => t.name))].sort();
  if (failing.length) out.push(`Failing tests:\n\n${failing.join('\n')}\n`);
  out.push(`Writing JUnit report to /logs/artifacts/junit/junit_e2e_${stamp}.xml\n`);
  const dur = goDuration(Math.round(run.e2eEnd - run.e2eStart));
  const { pass, fail, skip } = run.tallies;
  if (failing.length) out.push(`error: ${fail} fail, ${pass} pass, ${skip} skip (${dur})`);
  else {
    if (fail > 0) out.push(`${fail} flakes detected, suite allows passing with only flakes\n`);
    out.push(`${pass} pass, ${skip} skip (${dur})`);
  }
  out.push(`${ts(run.e2eEnd)} Step ${ci}-openshift-e2e-test ${failing.length ? 'failed' : 'succeeded'} after ${goDuration(Math.round(run.e2eEnd - run.e2eStart + 20))}.`);
  out.push(...step(run, 'gather-must-gather', run.e2eEnd + 2, run.e2eEnd + 150, true), ...step(run, 'ipi-deprovision-deprovision', run.e2eEnd + 151, run.finished - 20, true));
  out.push(`${ts(run.finished - 15)} Releasing leases for test ${ci}`, `${ts(run.finished - 5)} Ran for ${goDuration(run.finished - 5 - run.started)}`);
  if (failing.length) {
    out.push('error: some steps failed:', `  * could not run steps: step ${ci} failed: "${ci}" test steps failed: "${ci}" pod "${ci}-openshift-e2e-test" failed: the pod ${run.namespace}/${ci}-openshift-e2e-test failed after ${dur} (failed containers: test): ContainerFailed one or more containers exited`);
  } else if (run.job.kind === 'promotion') {
    out.push(`${ts(run.finished - 4)} Promoted machine-os-content sha256:${run.candidateDigest}`);
  }
  return out.join('\n') + '\n';
}
