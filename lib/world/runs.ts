// The simulation: what happened in each run. Special runs (aborted, error, install failures, infra
// meltdowns) are picked first, then every test's outcome per run, then the per-test timeline that the
// junit and build-log writers render. truth.json is computed from these records, never from the files.
import { BACKGROUND, INCIDENT, INSTALL_STEPS, SCENARIO, VERIFY, operatorTestNames, type JobDef } from './catalog';
import { DAY, HOUR } from './format';
import { TEMPLATES, installFatal, skipMessage, type TemplateName } from './messages';
import type { Rng } from './rng';
import type { PayloadTag, Schedule, ScheduledRun } from './schedule';
import { NEW_SUITE_TEST, REMOVED_SUITE_TEST, UPGRADE_TESTS, catalogTests, type CatalogTest } from './testNames';
import type { FinalState, Outcome } from './types';

export type RunMode = 'normal' | 'infra' | 'install' | 'aborted' | 'error';

export interface Exec {
  result: 'passed' | 'failed' | 'skipped';
  start: number;
  end: number;
  /** failure output ending with `fail [...]`, or the skip text */
  text?: string;
}

export interface SimTest {
  name: string;
  outcome: Outcome;
  execs: Exec[];
  kind?: TemplateName;
}

export interface OperatorTest {
  name: string;
  outcome: 'passed' | 'failed';
  durationSec: number;
  message?: string;
  systemOut?: string;
}

export interface SimRun extends ScheduledRun {
  mode: RunMode;
  /** a run of the mass failure (INCIDENT): its API server stopped answering */
  incident?: boolean;
  state: FinalState;
  finished: number;
  namespace: string;
  apiHost: string;
  e2eStart: number;
  e2eEnd: number;
  e2e: SimTest[];
  /** first-attempt tallies, as openshift-tests prints them */
  tallies: { pass: number; fail: number; skip: number };
  retried: boolean;
  noE2eJunit: boolean;
  operator: OperatorTest[];
  installError?: string;
  promoteCurrent?: string;
  testVersion: string;
}

export interface Simulation {
  runs: SimRun[];
  verification: Map<string, { blocking: Record<string, ScheduledRun | undefined>; informing: Record<string, ScheduledRun | undefined> }>;
  picks: { noE2eJunit: SimRun; errorRun: SimRun; forcedReject: SimRun; forcedAccept: SimRun; recurredCloseAt: number };
}

/** the first run of each verification job that tested the tag */
function verificationRuns(schedule: Schedule): Simulation['verification'] {
  const out: Simulation['verification'] = new Map();
  for (const release of ['4.1', '4.2'] as const) {
    for (const tag of schedule.tags[release]) {
      const find = (job: string) => schedule.runs.find((r) => r.job.name === job && r.payload === tag.name);
      const pick = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, job]) => [k, find(job)]));
      out.set(tag.name, { blocking: pick(VERIFY[release].blocking), informing: pick(VERIFY[release].informing) });
    }
  }
  return out;
}

function suiteFor(job: JobDef, started: number, catalog: CatalogTest[], windowStart: number, startUnix: number): CatalogTest[] {
  return catalog.filter((t) => {
    if (job.suite === 'minimal' && !t.minimal) return false;
    if (t.name === NEW_SUITE_TEST && started < windowStart + 2 * DAY) return false;
    if (t.name === REMOVED_SUITE_TEST && started >= startUnix + 5 * DAY) return false;
    return true;
  });
}

interface Plan {
  final: 'pass' | 'fail' | 'flake' | 'skip';
  kind?: TemplateName;
  skip?: string;
}

const MAX_ALLOWED_FLAKES = 15;

/** `tests`: the size of the openshift-tests catalog (`world --tests N`), else the hand-written one's */
export function simulate(schedule: Schedule, rng: Rng, tests?: number): Simulation {
  const { runs, startUnix, endUnix, regression } = schedule;
  const windowStart = endUnix - 7 * DAY;
  const catalog = catalogTests(tests);
  const generated = catalog.filter((t) => t.background);
  const verification = verificationRuns(schedule);
  const last = (tags: PayloadTag[]) => tags[tags.length - 1];
  const forcedAccept = verification.get(last(schedule.tags['4.1']).name)!.blocking.aws!;
  const forcedReject = verification.get(last(schedule.tags['4.2']).name)!.blocking.aws!;
  const promo41 = runs.filter((r) => r.job.kind === 'promotion' && r.job.release === '4.1');
  const promo42 = runs.filter((r) => r.job.kind === 'promotion' && r.job.release === '4.2');
  const blockerRuns = new Set(promo41.slice(-3));
  const clean = new Set<ScheduledRun>([forcedAccept, promo42[promo42.length - 1]]);
  const protectedRuns = new Set<ScheduledRun>([forcedAccept, forcedReject, ...blockerRuns, ...clean]);

  const pr = rng.fork('special');
  const mode = new Map<ScheduledRun, RunMode>();
  const isFinishedBy = (r: ScheduledRun, t: number) => r.started + r.plannedSeconds <= t;
  // one run whose pod never came up
  const errorRun = runs.find((r) => r.job.name.endsWith('4.1-e2e-azure') && r.started > startUnix + 4.6 * DAY)!;
  mode.set(errorRun, 'error');
  for (const r of runs) {
    if (protectedRuns.has(r) || mode.has(r)) continue;
    if (pr.chance(0.012)) mode.set(r, 'aborted');
    else if (r.job.installFailureRate && pr.chance(r.job.installFailureRate)) mode.set(r, 'install');
    else if (r.job.suite === 'full' && pr.chance(0.04)) mode.set(r, 'infra');
  }
  const free = (r: ScheduledRun) => !protectedRuns.has(r) && !mode.has(r);
  // the run that lost its e2e junit: a 4.2 aws periodic after the regression, inside the window
  const noJunit = runs.find((r) => free(r) && r.job.name.endsWith('nightly-4.2-e2e-aws') && r.started >= Math.max(regression.changeAt, windowStart) + 6 * HOUR && isFinishedBy(r, endUnix - HOUR))!;
  const fullFree = (r: ScheduledRun) => free(r) && r !== noJunit && r.job.suite === 'full' && isFinishedBy(r, endUnix);
  const inWindow = (r: ScheduledRun) => r.started >= windowStart;
  const newInWindowRuns = new Set(pr.sample(runs.filter((r) => fullFree(r) && inWindow(r)), 5));
  const xssRuns = new Set([...pr.sample(runs.filter((r) => fullFree(r) && !inWindow(r)), 1), ...pr.sample(runs.filter((r) => fullFree(r) && inWindow(r) && !newInWindowRuns.has(r)), 3)]);
  const recurredCloseAt = startUnix + 5 * DAY;
  const recurredForced = new Set([
    ...pr.sample(runs.filter((r) => free(r) && r.started < recurredCloseAt), 1),
    ...pr.sample(runs.filter((r) => free(r) && inWindow(r) && isFinishedBy(r, endUnix)), 2),
  ]);

  // the mass failure hits the same API-heavy tests in every run: a fixed pool, most of it each time
  const incidentProtected = new Set<string>([...Object.values(SCENARIO), ...BACKGROUND.map((b) => b.test), XSS, NEW_SUITE_TEST, REMOVED_SUITE_TEST]);
  const incidentPool = rng.fork('incident-pool').sample(catalog.filter((t) => !t.platform && !incidentProtected.has(t.name)).map((t) => t.name), INCIDENT.pool);
  const isIncidentRun = (r: ScheduledRun) =>
    r.job.release === INCIDENT.release && r.job.kind === INCIDENT.kind && (r.type === 'presubmit' ? r.started >= schedule.incident.startAt : (r.payload ?? '') >= schedule.incident.payload);

  const incidentRuns = new Set<ScheduledRun>();
  const simRuns: SimRun[] = [];
  const promoteCurrent: Record<string, string> = {};
  for (const r of runs) {
    const rr = rng.fork(`run:${r.seq}`);
    const m: RunMode = mode.get(r) ?? 'normal';
    const namespace = `ci-op-${rr.k8sSuffix(8)}`;
    const cloudDomain = { aws: 'origin-ci-int-aws.dev.rhcloud.com', gcp: 'origin-ci-int-gce.dev.openshift.com', azure: 'ci.azure.devcluster.openshift.com' }[r.job.platform];
    const apiHost = `api.${namespace}-${rr.hex(5)}.${cloudDomain}`;
    const installSec = rr.range(28, 40) * 60;
    let finished = r.started + r.plannedSeconds;
    if (m === 'install') finished = Math.round(r.started + installSec + rr.range(4, 12) * 60);
    if (m === 'aborted') finished = Math.round(r.started + rr.range(15, 70) * 60);
    if (m === 'error') finished = Math.round(r.started + rr.range(2, 6) * 60);
    const e2eStart = r.started + installSec + 60;
    const e2eEnd = finished - rr.range(8, 14) * 60;
    const sim: SimRun = {
      ...r, mode: m, state: 'success', finished, namespace, apiHost, e2eStart, e2eEnd, e2e: [], tallies: { pass: 0, fail: 0, skip: 0 },
      retried: false, noE2eJunit: r === noJunit, operator: [],
      testVersion: r.payload ?? `v4.2.0-alpha.0-${rr.int(1200, 2400)}-g${(r.refs?.pulls[0]?.sha ?? rr.hex(40)).slice(0, 7)}`,
    };
    if (r.job.kind === 'promotion') sim.promoteCurrent = promoteCurrent[r.job.name] ?? rng.fork(`digest:${r.job.name}`).hex(64);
    if (m === 'aborted' || m === 'error') {
      sim.state = m;
    } else if (m === 'install') {
      sim.state = 'failure';
      sim.installError = installFatal(rr);
      sim.operator = operatorTests(r, sim, rr, false);
    } else {
      // ---- plan each test's outcome
      const plan = new Map<string, Plan>();
      for (const t of suiteFor(r.job, r.started, catalog, windowStart, startUnix)) {
        plan.set(t.name, t.platform && t.platform !== r.job.platform ? { final: 'skip', skip: skipMessage(t.platform, r.job.platform) } : { final: 'pass' });
      }
      if (r.job.kind === 'upgrade') for (const n of UPGRADE_TESTS) plan.set(n, { final: 'pass' });
      const fail = (name: string, kind: TemplateName) => {
        if (plan.get(name)?.final === 'pass' || plan.get(name)?.final === 'flake') plan.set(name, { final: 'fail', kind });
      };
      if (r.job.name === SCENARIO.brokenJob) fail(SCENARIO.broken, 'broken');
      if (r.job.platform === 'gcp') fail(SCENARIO.brokenPlatform, 'gcePd');
      // the scenarios added with generator v3 draw from their own stream: the others stay as they were
      const v3 = rr.fork('scenarios-v3');
      const flakeOrFail = (name: string, kind: TemplateName, flakeShare: number) => {
        if (plan.get(name)?.final !== 'pass') return;
        plan.set(name, { final: v3.chance(flakeShare) ? 'flake' : 'fail', kind });
      };
      const intermittentEligible = r.job.release === '4.2' && (r.type === 'presubmit' ? r.started >= schedule.intermittent.changeAt : (r.payload ?? '') >= schedule.intermittent.payloadAfter);
      if (intermittentEligible && v3.chance(0.4)) flakeOrFail(SCENARIO.intermittentRegression, 'conntrack', 1 / 3);
      const regressionEligible = r.job.release === '4.2' && (r.type === 'presubmit' ? r.started >= regression.changeAt : (r.payload ?? '') >= regression.payloadAfter);
      if ((regressionEligible && rr.chance(0.6)) || r === forcedReject || r === noJunit) fail(SCENARIO.regression, 'regression');
      if (m === 'normal') {
        const f = rr.next();
        if (f < 0.1) plan.set(SCENARIO.flaky, { final: 'flake', kind: 'kubeletRace' });
        else if (f < 0.125) fail(SCENARIO.flaky, 'kubeletRace');
        for (const bg of BACKGROUND) if (rr.chance(bg.rate)) fail(bg.test, bg.template as TemplateName);
        if (generated.length) {
          // a stream of their own: the hand-written tests' outcomes stay as in the default world
          const g = rr.fork('generated');
          for (const t of generated) {
            if (plan.get(t.name)?.final === 'pass' && g.chance(t.background!.rate)) plan.set(t.name, { final: g.chance(1 / 3) ? 'flake' : 'fail', kind: t.background!.template });
          }
        }
        if (recurredForced.has(r)) fail(SCENARIO.recurred, 'statefulset');
        if (newInWindowRuns.has(r)) fail(SCENARIO.newInWindow, 'mustGather');
        if (xssRuns.has(r)) fail(XSS, 'xss');
        if (blockerRuns.has(r)) fail(SCENARIO.promotionBlocker, 'busybox');
        if (r.started < schedule.flakeFixedAt && v3.chance(0.12)) flakeOrFail(SCENARIO.fixedFlake, 'router503', 2 / 3);
        if (isIncidentRun(r)) {
          incidentRuns.add(r);
          for (const n of v3.sample(incidentPool, v3.int(INCIDENT.testsPerRun[0], INCIDENT.testsPerRun[1]))) fail(n, 'apiserverDown');
          // the long-lived flake fails with them: its failures overlap the incident
          plan.set(SCENARIO.flaky, { final: 'fail', kind: 'apiserverDown' });
        }
      } else {
        // infra: the cluster falls over; 40-80 tests hit the TLS handshake timeout
        const protectedNames = new Set([...Object.values(SCENARIO), ...BACKGROUND.map((b) => b.test), XSS]);
        const candidates = [...plan.entries()].filter(([n, p]) => p.final === 'pass' && !protectedNames.has(n)).map(([n]) => n);
        for (const n of rr.sample(candidates, rr.int(39, 79))) fail(n, 'tls');
        fail(SCENARIO.infra, 'tls');
      }
      if (clean.has(r)) for (const [n, p] of plan) if (p.final === 'fail' || p.final === 'flake') plan.set(n, { final: 'pass' });
      layOutTests(sim, plan, rr);
      sim.state = sim.e2e.some((t) => t.outcome === 'failed') ? 'failure' : 'success';
      sim.operator = operatorTests(r, sim, rr, true);
    }
    if (r.job.kind === 'promotion' && sim.state === 'success') promoteCurrent[r.job.name] = r.candidateDigest!;
    if (incidentRuns.has(r)) sim.incident = true;
    simRuns.push(sim);
  }
  const bySeq = (r: ScheduledRun) => simRuns[r.seq];
  return {
    runs: simRuns,
    verification,
    picks: { noE2eJunit: bySeq(noJunit), errorRun: bySeq(errorRun), forcedReject: bySeq(forcedReject), forcedAccept: bySeq(forcedAccept), recurredCloseAt },
  };
}

const XSS = catalogTests().find((t) => t.name.startsWith('[sig-xss]'))!.name;

/** Turns plans into executions on a timeline: 4 parallel workers, then the retry phase. */
function layOutTests(sim: SimRun, plan: Map<string, Plan>, rr: Rng): void {
  const names = [...plan.keys()];
  for (let i = names.length - 1; i > 0; i--) {
    const j = rr.int(0, i);
    [names[i], names[j]] = [names[j], names[i]];
  }
  const firstFails = [...plan.values()].filter((p) => p.final === 'fail' || p.final === 'flake').length;
  sim.retried = firstFails > 0 && firstFails <= MAX_ALLOWED_FLAKES;
  const budget = (sim.e2eEnd - sim.e2eStart) * (sim.retried ? 0.88 : 0.97);
  const durations = names.map((n) => (plan.get(n)!.final === 'skip' ? rr.range(0.1, 1.4) : rr.chance(0.1) ? rr.range(120, 420) : rr.range(2.5, 95)));
  const total = durations.reduce((a, b) => a + b, 0) / 4;
  const scale = Math.min(1, budget / total);
  const workers = [0, 0, 0, 0].map(() => sim.e2eStart + rr.range(0, 3));
  const byName = new Map<string, SimTest>();
  const ctxFor = (name: string, attempt: number, at: number) => ({ rng: rr.fork(`${name}#${attempt}`), atMs: Math.round(at * 1000), apiHost: sim.apiHost, namespace: `e2e-test-${rr.k8sSuffix()}` });
  names.forEach((name, i) => {
    const w = workers.indexOf(Math.min(...workers));
    const start = workers[w] + rr.range(0.01, 0.5);
    const end = start + durations[i] * scale;
    workers[w] = end;
    const p = plan.get(name)!;
    const exec: Exec =
      p.final === 'skip' ? { result: 'skipped', start, end, text: p.skip }
      : p.final === 'pass' ? { result: 'passed', start, end }
      : { result: 'failed', start, end, text: TEMPLATES[p.kind!](ctxFor(name, 0, end)) };
    const outcome: Outcome = p.final === 'skip' ? 'skipped' : p.final === 'pass' ? 'passed' : p.final === 'flake' && sim.retried ? 'flaked' : 'failed';
    byName.set(name, { name, outcome, execs: [exec], kind: p.kind });
  });
  sim.tallies = {
    pass: [...plan.values()].filter((p) => p.final === 'pass').length,
    fail: firstFails,
    skip: [...plan.values()].filter((p) => p.final === 'skip').length,
  };
  if (sim.retried) {
    const phase = Math.max(...workers) + rr.range(5, 20);
    for (const name of [...byName.keys()].filter((n) => byName.get(n)!.outcome !== 'passed' && byName.get(n)!.outcome !== 'skipped').sort()) {
      const t = byName.get(name)!;
      const start = phase + rr.range(0.01, 2);
      const end = start + rr.range(3, 80) * scale;
      t.execs.push(t.outcome === 'flaked' ? { result: 'passed', start, end } : { result: 'failed', start, end, text: TEMPLATES[t.kind!](ctxFor(name, 1, end)) });
    }
  }
  sim.e2e = names.map((n) => byName.get(n)!);
}

/** ci-operator's junit_operator.xml tests for a run that got past (or failed in) the install. */
function operatorTests(r: ScheduledRun, sim: SimRun, rr: Rng, installed: boolean): OperatorTest[] {
  const n = operatorTestNames(r.job.ciTest, r.type === 'periodic');
  const ok = (name: string, durationSec: number, systemOut?: string): OperatorTest => ({ name, outcome: 'passed', durationSec, systemOut });
  const out: OperatorTest[] = [ok(n.importImage, rr.range(1, 4)), ok(n.release, rr.range(20, 90)), ok(INSTALL_STEPS[0], rr.range(1, 3))];
  if (!installed) {
    const msg = `level=fatal msg=${JSON.stringify(sim.installError)}`;
    out.push(
      { name: INSTALL_STEPS[1], outcome: 'failed', durationSec: rr.range(600, 1500), message: msg },
      { name: INSTALL_STEPS[4], outcome: 'failed', durationSec: rr.range(1800, 2400), message: msg },
      { name: n.pre, outcome: 'failed', durationSec: rr.range(1800, 2400), message: 'The collected steps of multi-stage phase pre.', systemOut: 'The collected steps of multi-stage phase pre.' },
      { name: n.install, outcome: 'failed', durationSec: rr.range(1800, 2400), message: `${msg}\nerror: failed to execute wrapped command: exit status 1` },
      ok(n.post, rr.range(300, 700), 'The collected steps of multi-stage phase post.'),
      ok(n.gather, rr.range(100, 300)),
    );
    return out;
  }
  out.push(
    ok(INSTALL_STEPS[1], rr.range(600, 1200)), ok(INSTALL_STEPS[2], rr.range(500, 900)), ok(INSTALL_STEPS[3], rr.range(300, 700)), ok(INSTALL_STEPS[4], rr.range(1600, 2300)),
    ok(n.pre, rr.range(1700, 2400), 'The collected steps of multi-stage phase pre.'),
    ok(n.install, rr.range(1600, 2300)),
  );
  const failing = sim.e2e.filter((t) => t.outcome === 'failed').map((t) => t.name).sort();
  const e2eDur = sim.e2eEnd - sim.e2eStart;
  if (failing.length) {
    const tail = `Failing tests:\n\n${failing.join('\n')}\n\nerror: ${sim.tallies.fail} fail, ${sim.tallies.pass} pass, ${sim.tallies.skip} skip\n{"component":"entrypoint","error":"wrapped process failed: exit status 1","file":"sigs.k8s.io/prow/pkg/entrypoint/run.go:84","func":"sigs.k8s.io/prow/pkg/entrypoint.Options.internalRun","level":"error","msg":"Error executing test process","severity":"error"}\nerror: failed to execute wrapped command: exit status 1`;
    out.push({ name: n.test, outcome: 'failed', durationSec: e2eDur, message: 'The collected steps of multi-stage phase test.', systemOut: 'The collected steps of multi-stage phase test.' }, { name: n.e2e, outcome: 'failed', durationSec: e2eDur, message: tail });
  } else {
    out.push(ok(n.test, e2eDur, 'The collected steps of multi-stage phase test.'), ok(n.e2e, e2eDur));
  }
  out.push(ok(n.post, rr.range(300, 700), 'The collected steps of multi-stage phase post.'), ok(n.gather, rr.range(100, 300)));
  return out;
}
