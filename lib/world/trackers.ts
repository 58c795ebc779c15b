// Bug trackers (Bugzilla, Jira, GitHub issues) and the release controller's streams, with the links
// the bug linker must and must not find.
import { INSTALL_STEPS, SCENARIO, STREAMS } from './catalog';
import { DAY, HOUR } from './format';
import type { Schedule } from './schedule';
import type { Simulation, SimRun } from './runs';
import type { ReleaseJobRef, WorldBugzillaBug, WorldGithubIssue, WorldJiraIssue, WorldReleaseStream } from './types';
import { XSS_TEST } from './testNames';

export interface BugLinkTruth {
  tracker: 'bugzilla' | 'jira' | 'github';
  id: string;
  test: string;
  reason: 'name-in-summary' | 'name-in-comment' | 'name-in-description' | 'signature';
}

export interface BugNonLinkTruth {
  tracker: 'bugzilla' | 'jira' | 'github';
  id: string;
  reason: 'partial-name' | 'unrelated' | 'generic-phrase' | 'pull-request';
}

export interface Trackers {
  bugzilla: WorldBugzillaBug[];
  jira: WorldJiraIssue[];
  github: Record<string, WorldGithubIssue[]>;
  mustLink: BugLinkTruth[];
  mustNotLink: BugNonLinkTruth[];
  recurred: { tracker: 'bugzilla'; id: string; test: string; closedAt: number };
  signature: { tracker: 'bugzilla'; id: string; test: string; quotedFrom: { job: string; buildId: string } };
}

const R = (t: number) => Math.round(t);

/** the failure text of a kubelet-race occurrence, from the `fail [` line on */
function kubeletQuote(sim: Simulation, before: number): { text: string; run: SimRun } {
  for (const run of sim.runs) {
    if (run.finished > before) break;
    const t = run.e2e.find((x) => x.name === SCENARIO.flaky && x.outcome !== 'passed');
    const text = t?.execs[0]?.text;
    if (text) return { text: text.slice(text.lastIndexOf('\nfail [') + 1), run };
  }
  throw new Error('no kubelet race occurrence to quote');
}

export function makeTrackers(schedule: Schedule, sim: Simulation): Trackers {
  const S = schedule.startUnix;
  const E = schedule.endUnix;
  const changeAt = schedule.regression.changeAt;
  const closeAt = sim.picks.recurredCloseAt;
  const quote = kubeletQuote(sim, S + 6 * DAY);
  const bz = (id: number, summary: string, component: string, created: number, statuses: WorldBugzillaBug['statuses'], comments: [number, string, string][]): WorldBugzillaBug => ({
    id,
    summary,
    component: [component],
    version: ['4.2.0'],
    target_release: ['4.2.0'],
    whiteboard: '',
    created: R(created),
    statuses: statuses.map((s) => ({ ...s, at: R(s.at) })),
    comments: comments.map(([at, author, text], i) => ({ id: id * 10 + i, author, at: R(at), text })),
  });
  const bugzilla: WorldBugzillaBug[] = [
    bz(1763001, SCENARIO.flaky, 'openshift-controller-manager', S + 1.5 * DAY, [{ at: S + 1.5 * DAY, status: 'NEW' }, { at: S + 2 * DAY, status: 'ASSIGNED' }], [
      [S + 1.5 * DAY, 'mfojtik@redhat.com', 'The deployer pod invariant test flakes in roughly one run in ten across all platforms.'],
      [E - 10 * HOUR, 'tnozicka@redhat.com', 'Still happening on 4.1 and 4.2 nightlies. The kubelet reports the pod Failed before Succeeded.'],
    ]),
    bz(1763002, 'NodePort services unreachable on 4.2 nightlies', 'Networking', changeAt + 9 * HOUR, [{ at: changeAt + 9 * HOUR, status: 'NEW' }, { at: E - 6 * HOUR, status: 'ASSIGNED' }], [
      [changeAt + 9 * HOUR, 'dcbw@redhat.com', 'Since the latest 4.2 nightly, NodePort connections are refused.'],
      [changeAt + 20 * HOUR, 'danw@redhat.com', `Failing test:\n\n${SCENARIO.regression}\n\nStarted with ${schedule.regression.payloadAfter}.`],
      [E - 6 * HOUR, 'danw@redhat.com', 'Bisected to the iptables proxier change in openshift/origin.'],
    ]),
    bz(1763003, `${SCENARIO.recurred} fails`, 'kube-controller-manager', S + 0.5 * DAY, [
      { at: S + 0.5 * DAY, status: 'NEW' }, { at: S + 3 * DAY, status: 'ON_QA' }, { at: closeAt, status: 'CLOSED', resolution: 'ERRATA' },
    ], [[S + 0.5 * DAY, 'maszulik@redhat.com', 'Rolling update of the statefulset never converges.'], [closeAt, 'errata-xmlrpc@redhat.com', 'Since the problem described in this bug report should be resolved in a recent advisory, it has been closed with a resolution of ERRATA.']]),
    bz(1763004, 'Kubelet reports deployer pod phase Failed and then Succeeded', 'Node', S + 6 * DAY, [{ at: S + 6 * DAY, status: 'NEW' }, { at: S + 6.2 * DAY, status: 'ASSIGNED' }], [
      [S + 6 * DAY, 'rphillips@redhat.com', `Seen in CI (${quote.run.name} #${quote.run.buildId}):\n\n${quote.text}\n\nThe status manager writes a stale phase before the final one.`],
    ]),
    bz(1763005, 'Intermittent failures in "[sig-network] Services should" tests on Azure', 'Networking', E - 3 * DAY, [{ at: E - 3 * DAY, status: 'NEW' }], [[E - 3 * DAY, 'zzhao@redhat.com', 'Several [sig-network] Services should tests time out on Azure.']]),
    bz(1763006, 'Console shows wrong timezone in cluster settings', 'Management Console', E - 6 * DAY, [{ at: E - 6 * DAY, status: 'NEW' }], [[E - 6 * DAY, 'yapei@redhat.com', 'The cluster settings page renders times in UTC regardless of the browser.'], [E - 2 * HOUR, 'jhadvig@redhat.com', 'PR is up.']]),
    bz(1763008, SCENARIO.fixedFlake, 'Routing', S + 2.5 * DAY, [
      { at: S + 2.5 * DAY, status: 'NEW' }, { at: S + 4 * DAY, status: 'ASSIGNED' }, { at: schedule.flakeFixedAt - 2 * HOUR, status: 'MODIFIED' }, { at: schedule.flakeFixedAt + 6 * HOUR, status: 'VERIFIED' },
    ], [[S + 2.5 * DAY, 'mmasters@redhat.com', 'The router answers the unrecognized-host 503 late after a reload, about one run in eight.'], [schedule.flakeFixedAt - 2 * HOUR, 'mmasters@redhat.com', 'Fixed by openshift/router#412: the default backend is configured before the first reload.']]),
    bz(1763007, 'Router reload drops long-lived websocket connections', 'Routing', S - 20 * DAY, [{ at: S - 20 * DAY, status: 'NEW' }, { at: S - 10 * DAY, status: 'CLOSED', resolution: 'WONTFIX' }], [[S - 20 * DAY, 'hongli@redhat.com', 'websocket clients see a reset on every router reload.']]),
  ];

  const jiraIssue = (n: number, summary: string, description: string, component: string, created: number, statuses: WorldJiraIssue['statuses'], comments: [number, string, string][]): WorldJiraIssue => ({
    id: String(14900100 + n),
    key: `OCPBUGS-${1200 + n}`,
    summary,
    description,
    components: [component],
    created: R(created),
    statuses: statuses.map((s) => ({ ...s, at: R(s.at) })),
    comments: comments.map(([at, author, text], i) => ({ id: 20000000 + n * 10 + i, author, at: R(at), text })),
  });
  const jira: WorldJiraIssue[] = [
    jiraIssue(1, 'In-tree azure-disk subPath tests fail on every Azure 4.2 run', `The following test fails in every run of ${SCENARIO.brokenJob}:\n\n${SCENARIO.broken}\n\nPVCs never bind.`, 'Storage', S + 0.8 * DAY, [{ at: S + 0.8 * DAY, status: 'New' }, { at: E - 20 * HOUR, status: 'ASSIGNED' }], [[E - 20 * HOUR, 'jsafrane', 'The azure-disk storage class points at a retired SKU.']]),
    jiraIssue(2, 'e2e operations time out on slow clusters', 'Several tests fail with "timed out waiting for the condition" when the cluster is slow.', 'Test Framework', E - 4 * DAY, [{ at: E - 4 * DAY, status: 'New' }], [[E - 30 * HOUR, 'stbenjam', 'Which tests? That message is everywhere.']]),
    jiraIssue(3, `GCP: ${SCENARIO.installStep} fails with backend timeouts`, 'openshift-install fails creating the network on GCP in about one run in seven.', 'Installer', S + 3 * DAY, [{ at: S + 3 * DAY, status: 'New' }], [[E - 2 * DAY, 'patrickdillon', 'GCP quota project is close to its limit.']]),
    jiraIssue(4, 'Docs: update install guide for 4.2', 'The guide still refers to 4.1 channels.', 'Documentation', S - 5 * DAY, [{ at: S - 5 * DAY, status: 'New' }, { at: S + 2 * DAY, status: 'Closed', resolution: 'Done' }], []),
    jiraIssue(6, 'Conntrack UDP test fails intermittently on 4.2 nightlies', `Since ${schedule.intermittent.payloadAfter} this test fails in about four 4.2 runs in ten, and its retry sometimes passes, so it looks like a flake:\n\n${SCENARIO.intermittentRegression}\n\n4.1 is not affected.`, 'Networking / ovn-kubernetes', schedule.intermittent.changeAt + 30 * HOUR, [{ at: schedule.intermittent.changeAt + 30 * HOUR, status: 'New' }, { at: schedule.intermittent.changeAt + 40 * HOUR, status: 'ASSIGNED' }], [[schedule.intermittent.changeAt + 40 * HOUR, 'trozet', 'Stale conntrack entries survive the endpoint change; looking at the ovnkube change in that payload.']]),
    jiraIssue(5, 'must-gather collection of audit logs is slow', 'Collecting audit logs takes longer than 10 minutes on large clusters.', 'oc', E - 3 * HOUR, [{ at: E - 3 * HOUR, status: 'New' }], []),
  ];

  const gh = (number: number, title: string, body: string, user: string, created: number, comments: [number, string, string][], extra: Partial<WorldGithubIssue> = {}): WorldGithubIssue => ({
    number, title, body, user, created: R(created), comments: comments.map(([at, author, text], i) => ({ id: 400000000 + number * 10 + i, author, at: R(at), text })), ...extra,
  });
  const github: Record<string, WorldGithubIssue[]> = {
    'kubernetes/kubernetes': [
      gh(58711, 'DNS should provide DNS for services flakes on OpenShift CI', `Seen on OpenShift CI:\n\n${SCENARIO.githubLinked}\n\nThe wheezy probe never reads its result.`, 'smarterclayton', S + 2 * DAY, [[E - 1 * DAY, 'thockin', '/sig network\n/priority important-soon']]),
      gh(59320, 'kubectl apply --prune deletes resources in other namespaces', 'With --all and --prune, resources outside the namespace are deleted.', 'soltysh', S - 30 * DAY, [], { closed: R(S + 4 * DAY) }),
      gh(60122, 'Bump golang.org/x/net to fix TLS handshake timeout handling', 'Picks up the upstream fix for handshake timeouts.', 'liggitt', E - 5 * DAY, [], { isPullRequest: true }),
      gh(61050, 'e2e: test names with HTML are not escaped in reports', 'Some report pages render test names as HTML.', 'BenTheElder', E - 4 * DAY, [[E - 12 * HOUR, 'spiffxp', `Example: ${XSS_TEST}`]]),
      gh(61234, 'kubelet: log spam about cgroup v1 deprecation', 'Every node logs the warning once a second.', 'derekwaynecarr', E - 2 * DAY, []),
    ],
  };

  const mustLink: BugLinkTruth[] = [
    { tracker: 'bugzilla', id: '1763001', test: SCENARIO.flaky, reason: 'name-in-summary' },
    { tracker: 'bugzilla', id: '1763002', test: SCENARIO.regression, reason: 'name-in-comment' },
    { tracker: 'bugzilla', id: '1763003', test: SCENARIO.recurred, reason: 'name-in-summary' },
    { tracker: 'bugzilla', id: '1763004', test: SCENARIO.flaky, reason: 'signature' },
    { tracker: 'jira', id: 'OCPBUGS-1201', test: SCENARIO.broken, reason: 'name-in-description' },
    { tracker: 'jira', id: 'OCPBUGS-1203', test: INSTALL_STEPS[1], reason: 'name-in-summary' },
    { tracker: 'bugzilla', id: '1763008', test: SCENARIO.fixedFlake, reason: 'name-in-summary' },
    { tracker: 'jira', id: 'OCPBUGS-1206', test: SCENARIO.intermittentRegression, reason: 'name-in-description' },
    { tracker: 'github', id: 'kubernetes/kubernetes#58711', test: SCENARIO.githubLinked, reason: 'name-in-description' },
    { tracker: 'github', id: 'kubernetes/kubernetes#61050', test: XSS_TEST, reason: 'name-in-comment' },
  ];
  const mustNotLink: BugNonLinkTruth[] = [
    { tracker: 'bugzilla', id: '1763005', reason: 'partial-name' },
    { tracker: 'bugzilla', id: '1763006', reason: 'unrelated' },
    { tracker: 'bugzilla', id: '1763007', reason: 'unrelated' },
    { tracker: 'jira', id: 'OCPBUGS-1202', reason: 'generic-phrase' },
    { tracker: 'jira', id: 'OCPBUGS-1204', reason: 'unrelated' },
    { tracker: 'jira', id: 'OCPBUGS-1205', reason: 'unrelated' },
    { tracker: 'github', id: 'kubernetes/kubernetes#59320', reason: 'unrelated' },
    { tracker: 'github', id: 'kubernetes/kubernetes#60122', reason: 'pull-request' },
    { tracker: 'github', id: 'kubernetes/kubernetes#61234', reason: 'unrelated' },
  ];
  return {
    bugzilla,
    jira,
    github,
    mustLink,
    mustNotLink,
    recurred: { tracker: 'bugzilla', id: '1763003', test: SCENARIO.recurred, closedAt: R(closeAt) },
    signature: { tracker: 'bugzilla', id: '1763004', test: SCENARIO.flaky, quotedFrom: { job: quote.run.name, buildId: quote.run.buildId } },
  };
}

export function makeReleaseStreams(schedule: Schedule, sim: Simulation): WorldReleaseStream[] {
  const ref = (r: { name: string; buildId: string } | undefined): ReleaseJobRef => (r ? { job: r.name, buildId: r.buildId } : {});
  const refs = (m: Record<string, { name: string; buildId: string } | undefined>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, ref(v)]));
  return (['4.1', '4.2'] as const).map((release) => ({
    name: STREAMS[release],
    tags: schedule.tags[release].map((tag, i, all) => {
      const v = sim.verification.get(tag.name)!;
      const upgrades = release === '4.2' && i > 0 ? sim.runs.filter((r) => r.job.kind === 'upgrade' && r.payload === tag.name) : [];
      return {
        name: tag.name,
        created: tag.created,
        pullSpec: tag.pullSpec,
        downloadURL: tag.downloadURL,
        blockingJobs: refs(v.blocking),
        informingJobs: refs(v.informing),
        ...(upgrades.length ? { upgradesFrom: all[i - 1].name, upgradeRuns: upgrades.map((r) => ref(r)) } : {}),
      };
    }),
  }));
}
