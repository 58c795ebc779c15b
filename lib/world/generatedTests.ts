// Tests added to the catalog by `buildcop world --tests N`, so a world can carry openshift-tests
// suites of OpenShift's size (about 3,000 tests) for the ingest benchmark. Names in the real style
// ("[sig-x][Feature:Y] Subject when ... should ... [Suite:openshift/conformance/parallel]"), made by
// enumeration (no randomness: the same N gives the same names), each failing in a small share of runs
// with the texts of the world's failure templates. The default world has none of them.
import type { TemplateName } from './messages';

const P = '[Suite:openshift/conformance/parallel]';
const MK = '[Suite:openshift/conformance/parallel/minimal] [Suite:k8s]';

interface Area {
  sig: string;
  subjects: string[];
  /** the failure template of its tests' failures */
  template: TemplateName;
}

const AREAS: Area[] = [
  { sig: '[sig-network]', subjects: ['Services', 'Networking Granular Checks: Services', 'NetworkPolicy [LinuxOnly]', 'EndpointSlice', 'HostPort', 'Netpol API'], template: 'conntrack' },
  { sig: '[sig-network][Feature:Router]', subjects: ['The HAProxy router', 'The HAProxy router with a wildcard policy', 'The HAProxy router with a sharded ingress controller'], template: 'router' },
  { sig: '[sig-network] DNS', subjects: ['DNS records for services', 'DNS for pods by hostname', 'DNS over TCP'], template: 'dns' },
  { sig: '[sig-storage]', subjects: ['CSI Volumes [Driver: csi-hostpath]', 'PersistentVolumes-local', 'Projected combined', 'Volume limits', 'Ephemeralstorage', 'VolumeSnapshot'], template: 'broken' },
  { sig: '[sig-apps]', subjects: ['StatefulSet', 'Deployment', 'DaemonRestart', 'CronJob', 'ReplicaSet', 'Job'], template: 'statefulset' },
  { sig: '[sig-apps][Feature:DeploymentConfig]', subjects: ['deploymentconfigs', 'deploymentconfigs with custom deployments', 'deploymentconfigs paused'], template: 'kubeletRace' },
  { sig: '[sig-node]', subjects: ['Pods', 'Container Runtime', 'Probing container', 'Security Context', 'Kubelet', 'NodeLease', 'RuntimeClass'], template: 'busybox' },
  { sig: '[sig-api-machinery]', subjects: ['ResourceQuota', 'Garbage collector', 'CustomResourceDefinition resources [Privileged:ClusterAdmin]', 'AdmissionWebhook [Privileged:ClusterAdmin]', 'Watchers', 'API priority and fairness'], template: 'apiserverDown' },
  { sig: '[sig-auth][Feature:OAuthServer]', subjects: ['OAuth server', 'OAuth server with an identity provider', 'OAuth tokens'], template: 'tls' },
  { sig: '[sig-cli]', subjects: ['oc adm', 'oc debug', 'oc builds', 'oc rsh', 'oc project', 'Kubectl client'], template: 'mustGather' },
  { sig: '[sig-builds][Feature:Builds]', subjects: ['build with empty source', 'oc new-build', 's2i build', 'docker build', 'build pruning'], template: 'build' },
  { sig: '[sig-instrumentation]', subjects: ['Prometheus', 'Metrics', 'Events API', 'MetricsGrabber'], template: 'prometheus' },
  { sig: '[sig-imageregistry][Feature:Image]', subjects: ['oc tag', 'signature', 'image stream import', 'layers'], template: 'build' },
  { sig: '[sig-operator]', subjects: ['OLM', 'an end user can use OLM', 'operator install'], template: 'tls' },
  { sig: '[sig-arch]', subjects: ['Managed cluster', 'ClusterOperators', 'ocp payload'], template: 'tls' },
];

const WHENS = [
  '', 'when creating a pod ', 'with a custom namespace ', 'after a node restart ', 'with the default configuration ', 'when scaled to zero ',
  'with a non-root user ', 'when the API server restarts ', 'with a lease ', 'with multiple replicas ', 'when the resource is deleted ', 'over TLS ',
];

const BEHAVIOURS = [
  'should be created and deleted', 'should update the status', 'should report events', 'should be ready within 5 minutes', 'should serve requests',
  'should keep the data', 'should be scheduled on different nodes', 'should not leak resources', 'should honour the resource limits',
  'should reject an invalid request', 'should list all items', 'should be patched', 'should expose metrics', 'should propagate labels',
  'should survive a restart', 'should be garbage collected', 'should emit no warnings', 'should respect the timeout', 'should watch changes',
  'should roll out a new revision', 'should mount the volume', 'should resolve the name', 'should be reachable from a pod', 'should terminate gracefully',
];

/** names before a tag is appended: AREAS' subjects x WHENS x BEHAVIOURS */
const COMBINATIONS = AREAS.reduce((n, a) => n + a.subjects.length, 0) * WHENS.length * BEHAVIOURS.length;

const SUBJECTS = AREAS.flatMap((area) => area.subjects.map((subject) => ({ area, subject })));

export interface GeneratedTest {
  name: string;
  minimal: boolean;
  /** share of the runs executing it in which it fails (a third of those flake when retried) */
  failureRate: number;
  template: TemplateName;
}

/**
 * `count` generated tests, distinct from each other (and from the hand-written catalog: every name
 * carries a WHENS/BEHAVIOURS phrase none of those has). A quarter are in the minimal suite. Failure
 * rates spread as real suites' do: a few tests fail often, most almost never (about 3 failures in
 * all per run of 3,000 of them).
 */
export function generatedTests(count: number): GeneratedTest[] {
  const out: GeneratedTest[] = [];
  for (let i = 0; i < count; i++) {
    // consecutive tests walk the areas first, so any prefix spreads over every sig
    const c = i % COMBINATIONS;
    const { area, subject } = SUBJECTS[c % SUBJECTS.length];
    const rest = Math.floor(c / SUBJECTS.length);
    const when = WHENS[rest % WHENS.length];
    const behaviour = BEHAVIOURS[Math.floor(rest / WHENS.length) % BEHAVIOURS.length];
    const round = Math.floor(i / COMBINATIONS);
    const tag = round ? ` [apigroup:gen${round}.openshift.io]` : '';
    const minimal = i % 4 === 3;
    const name = minimal ? `${area.sig} ${subject} ${when}${behaviour}${tag} [Conformance] ${MK}` : `${area.sig} ${subject} ${when}${behaviour}${tag} ${P}`;
    out.push({ name, minimal, failureRate: 0.03 / Math.pow((i % 997) + 1, 0.6), template: area.template });
  }
  return out;
}
