// truth.json: what ingest and analysis must find, computed from the simulation records (never by
// reading the generated files back). Counting rules: only runs finished by `end` count; the window is
// runs STARTED in [end-7d, end), "previous" the 7 days before; runs = runs that executed the test
// (passed, failed or flaked; skips excluded); a flake (fail, then pass on retry) is never a failure.
import { INCIDENT, INSTALL_STEPS, JOBS, PROMOTION_GATES, SCENARIO } from './catalog';
import { DAY, rfc3339 } from './format';
import { runIndex, tagPhase, verificationStatus, visibleTags } from './release';
import type { Schedule } from './schedule';
import type { Simulation, SimRun } from './runs';
import { NEW_SUITE_TEST, REMOVED_SUITE_TEST, XSS_TEST } from './testNames';
import type { Trackers } from './trackers';
import type { Outcome, WorldReleaseStream, WorldRun } from './types';

export interface PeriodStats {
  runs: number;
  failedRuns: number;
  flakedRuns: number;
  jobs: string[];
}

function outcomesOf(r: SimRun): [string, Outcome][] {
  return [...r.e2e.map((t) => [t.name, t.outcome] as [string, Outcome]), ...r.operator.map((t) => [t.name, t.outcome] as [string, Outcome])];
}

const runRef = (r: SimRun) => ({ job: r.name, buildId: r.buildId, started: r.started, startedIso: rfc3339(r.started) });

export function computeTruth(schedule: Schedule, sim: Simulation, worldRuns: WorldRun[], trackers: Trackers, streams: WorldReleaseStream[]): Record<string, unknown> {
  const E = schedule.endUnix;
  const windowStart = E - 7 * DAY;
  const finished = sim.runs.filter((r) => r.finished <= E);
  const pending = sim.runs.filter((r) => r.started <= E && r.finished > E);
  const byState = { success: 0, failure: 0, error: 0, aborted: 0 };
  for (const r of finished) byState[r.state]++;

  const names = new Set<string>();
  const results = { passed: 0, failed: 0, flaked: 0, skipped: 0, total: 0 };
  const acc = new Map<string, { window: PeriodStats & { jobSet: Set<string> }; previous: PeriodStats & { jobSet: Set<string> }; bad: boolean }>();
  const blank = () => ({ runs: 0, failedRuns: 0, flakedRuns: 0, jobs: [] as string[], jobSet: new Set<string>() });
  for (const r of finished) {
    const period = r.started >= windowStart ? 'window' : 'previous';
    for (const [name, outcome] of outcomesOf(r)) {
      names.add(name);
      results[outcome]++;
      results.total++;
      if (outcome === 'skipped') continue;
      let a = acc.get(name);
      if (!a) acc.set(name, (a = { window: blank(), previous: blank(), bad: false }));
      const p = a[period];
      p.runs++;
      if (outcome === 'failed') p.failedRuns++;
      if (outcome === 'flaked') p.flakedRuns++;
      if (outcome !== 'passed') {
        p.jobSet.add(r.name);
        a.bad = true;
      }
    }
  }
  const finish = (p: PeriodStats & { jobSet?: Set<string> }): PeriodStats => ({ runs: p.runs, failedRuns: p.failedRuns, flakedRuns: p.flakedRuns, jobs: [...(p.jobSet ?? [])].sort() });
  const perTest: Record<string, { window: PeriodStats; previous: PeriodStats }> = {};
  for (const [name, a] of [...acc.entries()].sort(([x], [y]) => (x < y ? -1 : 1))) if (a.bad) perTest[name] = { window: finish(a.window), previous: finish(a.previous) };
  const stats = (name: string) => perTest[name] ?? { window: finish(blank()), previous: finish(blank()) };

  const e2eNames = new Set(finished.flatMap((r) => r.e2e.map((t) => t.name)));
  const ranked = (filter: (n: string) => boolean) =>
    Object.entries(perTest).filter(([n]) => filter(n)).sort(([na, a], [nb, b]) => b.window.failedRuns - a.window.failedRuns || (na < nb ? -1 : 1));
  const rankedE2e = ranked((n) => e2eNames.has(n));
  const rankedAll = ranked(() => true);

  // regression
  const reg = schedule.regression;
  const regFails = finished.filter((r) => r.e2e.some((t) => t.name === SCENARIO.regression && t.outcome === 'failed'));
  const perJob: Record<string, { runs: number; failedRuns: number; rate: number }> = {};
  for (const r of finished.filter((x) => x.started >= windowStart)) {
    const t = r.e2e.find((x) => x.name === SCENARIO.regression);
    if (!t || t.outcome === 'skipped' || r.job.release !== '4.2') continue;
    const j = (perJob[r.name] ??= { runs: 0, failedRuns: 0, rate: 0 });
    j.runs++;
    if (t.outcome === 'failed') j.failedRuns++;
  }
  for (const j of Object.values(perJob)) j.rate = Math.round((j.failedRuns / j.runs) * 1000) / 1000;
  const ratio = (runs: SimRun[], test: string) => {
    const ran = runs.map((r) => r.e2e.find((t) => t.name === test)).filter((t) => t && t.outcome !== 'skipped');
    const failedRuns = ran.filter((t) => t!.outcome === 'failed').length;
    return { runs: ran.length, failedRuns, rate: ran.length ? Math.round((failedRuns / ran.length) * 1000) / 1000 : 0 };
  };
  const afterChange = ratio(finished.filter((r) => r.job.release === '4.2' && r.started >= reg.changeAt), SCENARIO.regression);
  const brokenJob = { window: ratio(finished.filter((r) => r.name === SCENARIO.brokenJob && r.started >= windowStart), SCENARIO.broken), previous: ratio(finished.filter((r) => r.name === SCENARIO.brokenJob && r.started < windowStart), SCENARIO.broken) };

  // signatures
  const kubelet = finished.filter((r) => r.e2e.some((t) => t.name === SCENARIO.flaky && t.kind === 'kubeletRace' && t.outcome !== 'passed' && t.outcome !== 'skipped'));
  const tlsPairs = finished.flatMap((r) => r.e2e.filter((t) => t.kind === 'tls').map((t) => ({ run: r, test: t.name })));
  const infraRuns = finished.filter((r) => r.mode === 'infra');

  // bugs: the recurred test's failures after the bug was closed
  const closedAt = trackers.recurred.closedAt;
  const afterClose = finished.filter((r) => r.started > closedAt && r.e2e.some((t) => t.name === SCENARIO.recurred && t.outcome === 'failed')).length;

  // promotion
  const idx = runIndex(worldRuns);
  const gates = PROMOTION_GATES.map((g) => {
    const runs = finished.filter((r) => g.blockingJobs.includes(r.name)).sort((a, b) => a.started - b.started);
    const last = runs.slice(-3).map((r) => ({ ...runRef(r), state: r.state }));
    const latest = runs[runs.length - 1];
    return {
      name: g.name,
      blockingJobs: g.blockingJobs,
      informingJobs: g.informingJobs,
      blocked: latest.state !== 'success',
      latestRun: { ...runRef(latest), state: latest.state },
      lastRuns: last,
      failingTest: latest.state !== 'success' ? SCENARIO.promotionBlocker : undefined,
    };
  });

  const releaseStreams = Object.fromEntries(
    streams.map((s) => {
      const tags = visibleTags(s, E);
      const latest = tags[0];
      const blocking = Object.fromEntries(Object.entries(latest.blockingJobs).map(([k, ref]) => [k, { ...ref, ...verificationStatus(ref, idx, E, '') }]));
      return [s.name, { latest: latest.name, phase: tagPhase(latest, idx, E), tags: tags.length, blockingJobs: blocking, phases: Object.fromEntries(tags.map((t) => [t.name, tagPhase(t, idx, E)])) }];
    }),
  );

  // the scenarios of generator v3: what a verdict must call them, in every window
  const nonPassing = (r: SimRun, test: string) => r.e2e.some((t) => t.name === test && (t.outcome === 'failed' || t.outcome === 'flaked'));
  const ran = (r: SimRun, test: string) => r.e2e.some((t) => t.name === test && t.outcome !== 'skipped');
  const tally = (runs: SimRun[], test: string) => {
    const with_ = runs.filter((r) => ran(r, test));
    const outcome = (r: SimRun) => r.e2e.find((t) => t.name === test)!.outcome;
    return { runs: with_.length, failedRuns: with_.filter((r) => outcome(r) === 'failed').length, flakedRuns: with_.filter((r) => outcome(r) === 'flaked').length };
  };
  // runs whose failures a verdict judges a test by: not an install failure, not a cluster that fell over
  const healthy = (r: SimRun) => r.mode === 'normal' && !r.incident;
  const inter = schedule.intermittent;
  const interAfter = finished.filter((r) => r.started >= inter.changeAt);
  const interFirst = interAfter.filter((r) => healthy(r) && nonPassing(r, SCENARIO.intermittentRegression)).sort((a, b) => a.started - b.started)[0];
  const incidentRuns = finished.filter((r) => r.incident);
  const incidentTests = new Set(incidentRuns.flatMap((r) => r.e2e.filter((t) => t.kind === 'apiserverDown' && t.outcome === 'failed').map((t) => t.name)));
  const fixedFailures = finished.filter((r) => nonPassing(r, SCENARIO.fixedFlake));
  const lastFixed = fixedFailures[fixedFailures.length - 1];
  const gcpJobs = [...new Set(finished.filter((r) => r.job.platform === 'gcp' && ran(r, SCENARIO.brokenPlatform)).map((r) => r.name))].sort();
  const promoBlockerJob = PROMOTION_GATES[0].blockingJobs[0];
  const v3 = {
    intermittentRegression: {
      test: SCENARIO.intermittentRegression,
      changeAt: inter.changeAt,
      changeAtIso: rfc3339(inter.changeAt),
      payloadBefore: inter.payloadBefore,
      payloadAfter: inter.payloadAfter,
      afterChange: { '4.1': tally(interAfter.filter((r) => r.job.release === '4.1'), SCENARIO.intermittentRegression), '4.2': tally(interAfter.filter((r) => r.job.release === '4.2'), SCENARIO.intermittentRegression) },
      afterChangeHealthy: { '4.1': tally(interAfter.filter((r) => healthy(r) && r.job.release === '4.1'), SCENARIO.intermittentRegression), '4.2': tally(interAfter.filter((r) => healthy(r) && r.job.release === '4.2'), SCENARIO.intermittentRegression) },
      firstFailingRun: runRef(interFirst),
      beforeChange: tally(finished.filter((r) => r.started < inter.changeAt), SCENARIO.intermittentRegression),
      changedReleases: ['4.2'],
      unchangedReleases: ['4.1'],
    },
    fixedFlake: {
      test: SCENARIO.fixedFlake,
      fixedAt: schedule.flakeFixedAt,
      fixedAtIso: rfc3339(schedule.flakeFixedAt),
      lastFailure: runRef(lastFixed),
      failuresBeforeFix: fixedFailures.length,
      cleanRunsSince: finished.filter((r) => r.started > lastFixed.started && ran(r, SCENARIO.fixedFlake)).length,
      cleanHealthyRunsSince: finished.filter((r) => r.started > lastFixed.started && healthy(r) && ran(r, SCENARIO.fixedFlake)).length,
      bug: { tracker: 'bugzilla', id: '1763008' },
    },
    brokenPlatform: { test: SCENARIO.brokenPlatform, platform: 'gcp', jobs: gcpJobs, ...tally(finished, SCENARIO.brokenPlatform) },
    massIncident: {
      release: INCIDENT.release,
      payload: schedule.incident.payload,
      startAt: schedule.incident.startAt,
      startAtIso: rfc3339(schedule.incident.startAt),
      runs: incidentRuns.map(runRef),
      tests: [...incidentTests].sort(),
      signatureText: 'the server is currently unable to handle the request (get pods)',
      flakyTestFailures: incidentRuns.filter((r) => nonPassing(r, SCENARIO.flaky)).length,
      longFlakeFirstFailure: rfc3339(finished.find((r) => nonPassing(r, SCENARIO.flaky))!.started),
    },
    promotionBlocker: { test: SCENARIO.promotionBlocker, job: promoBlockerJob, failingLastRuns: 3 },
  };
  /** the verdict each scenario test must get, in every window, from the world's design */
  const expectedVerdicts: Record<string, string> = {
    [SCENARIO.regression]: 'regression',
    [SCENARIO.intermittentRegression]: 'regression',
    [SCENARIO.broken]: 'broken',
    [SCENARIO.brokenPlatform]: 'broken',
    [SCENARIO.flaky]: 'flaky',
    [SCENARIO.fixedFlake]: 'fixed',
    [SCENARIO.infra]: 'infra',
  };

  const firstSeen = (name: string) => finished.find((r) => r.e2e.some((t) => t.name === name));
  const lastSeen = (name: string) => [...finished].reverse().find((r) => r.e2e.some((t) => t.name === name));
  const pick = sim.picks;
  return {
    end: rfc3339(E),
    endUnix: E,
    windowDays: 7,
    windowStart: rfc3339(windowStart),
    runs: { finished: finished.length, byState, pending: pending.length, pendingRuns: pending.map(runRef), total: sim.runs.length },
    jobs: [...new Set(sim.runs.map((r) => r.name))].sort(),
    tests: names.size,
    testNames: [...names].sort(),
    testResults: results,
    perTest,
    scenarios: {
      top: { test: rankedE2e[0][0], failedRuns: rankedE2e[0][1].window.failedRuns, runnerUp: { test: rankedE2e[1][0], failedRuns: rankedE2e[1][1].window.failedRuns }, note: 'openshift-tests names only; ci-operator step tests excluded' },
      topIncludingOperatorTests: { test: rankedAll[0][0], failedRuns: rankedAll[0][1].window.failedRuns },
      flaky: { test: SCENARIO.flaky, ...stats(SCENARIO.flaky), jobs: JOBS.map((j) => j.name) },
      regression: {
        test: SCENARIO.regression,
        changeAt: reg.changeAt,
        changeAtIso: rfc3339(reg.changeAt),
        firstFailingRun: runRef(regFails.sort((a, b) => a.started - b.started)[0]),
        payloadBefore: reg.payloadBefore,
        payloadAfter: reg.payloadAfter,
        presubmitBaseShaBefore: reg.baseShaBefore,
        presubmitBaseShaAfter: reg.baseShaAfter,
        ...stats(SCENARIO.regression),
        afterChange,
        perJobWindow: perJob,
        maxJobFailRateWindow: Math.max(...Object.values(perJob).map((j) => j.rate)),
      },
      broken: { test: SCENARIO.broken, job: SCENARIO.brokenJob, ...stats(SCENARIO.broken), inJob: brokenJob },
      infra: { test: SCENARIO.infra, runs: infraRuns.map(runRef), ...stats(SCENARIO.infra) },
      newInWindow: { test: SCENARIO.newInWindow, ...stats(SCENARIO.newInWindow) },
      newTest: { test: NEW_SUITE_TEST, firstSeen: runRef(firstSeen(NEW_SUITE_TEST)!) },
      removedTest: { test: REMOVED_SUITE_TEST, lastSeen: runRef(lastSeen(REMOVED_SUITE_TEST)!) },
      xss: { test: XSS_TEST, ...stats(XSS_TEST) },
      installStepTest: { test: INSTALL_STEPS[1], ...stats(INSTALL_STEPS[1]) },
      renamedJob: { ...schedule.renamedJob, atIso: rfc3339(schedule.renamedJob.at) },
      ...v3,
    },
    expectedVerdicts,
    specialRuns: {
      noE2eJunit: { ...runRef(pick.noE2eJunit), gcsPath: worldRuns[pick.noE2eJunit.seq].gcsPath, note: 'no junit_e2e file; build-log.txt has every per-test line' },
      error: { ...runRef(pick.errorRun), note: 'state error: started.json and prowjob.json only' },
      aborted: finished.filter((r) => r.state === 'aborted').map(runRef),
      releaseRejectedBy: runRef(pick.forcedReject),
    },
    kubeletRaceSignature: { test: SCENARIO.flaky, occurrences: kubelet.length, windowOccurrences: kubelet.filter((r) => r.started >= windowStart).length },
    tlsSignature: { tests: [...new Set(tlsPairs.map((p) => p.test))].sort(), occurrences: tlsPairs.length, runs: infraRuns.length },
    bugs: { mustLink: trackers.mustLink, mustNotLink: trackers.mustNotLink, recurred: { ...trackers.recurred, closedAtIso: rfc3339(trackers.recurred.closedAt), failuresAfterClose: afterClose }, signature: trackers.signature },
    promotion: { gates },
    releaseStreams,
  };
}
