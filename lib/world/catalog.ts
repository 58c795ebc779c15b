// The sample world's jobs and scenario tests. Job names follow the real OpenShift patterns
// (periodic-ci-openshift-release-master-{nightly,ci}-<ver>-e2e-<cloud>, pull-ci-<org>-<repo>-<branch>-<test>,
// release-promote-openshift-machine-os-content-e2e-aws-<ver>).
import { FLAKY_TEST } from './testNames';

export type Platform = 'aws' | 'gcp' | 'azure';

export interface JobDef {
  /** the name runs carry at the end of the world */
  name: string;
  /** the job's earlier name, used by runs started before `renameAtDay` */
  formerName?: string;
  /** days after the world's start at which the job was renamed */
  renameAtDay?: number;
  type: 'periodic' | 'presubmit';
  release: '4.1' | '4.2';
  platform: Platform;
  kind: 'e2e' | 'upgrade' | 'promotion';
  /** full parallel suite, or the minimal one (upgrade and promotion jobs) */
  suite: 'full' | 'minimal';
  /** the ci-operator test name (artifacts/<ciTest>/…, "Run multi-stage test <ciTest> - …") */
  ciTest: string;
  /** periodics: hours between runs; presubmits and promotion: runs per day */
  everyHours?: number;
  perDay?: number;
  /** presubmits */
  org?: string;
  repo?: string;
  /** pr-logs/pull/<PR>/… (legacy default-org layout) instead of pr-logs/pull/<org>_<repo>/<PR>/… */
  legacyPrPath?: boolean;
  /** e2e junit wrapped in <testsuites> */
  junitWrapper?: boolean;
  /** share of runs whose install fails */
  installFailureRate?: number;
  /** minutes: typical duration of a run that reaches the tests */
  minutes: [number, number];
}

export const JOBS: JobDef[] = [
  { name: 'periodic-ci-openshift-release-master-nightly-4.1-e2e-aws', type: 'periodic', release: '4.1', platform: 'aws', kind: 'e2e', suite: 'full', ciTest: 'e2e-aws', everyHours: 4.25, minutes: [85, 120] },
  { name: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws', type: 'periodic', release: '4.2', platform: 'aws', kind: 'e2e', suite: 'full', ciTest: 'e2e-aws', everyHours: 4.25, minutes: [85, 120] },
  {
    name: 'periodic-ci-openshift-release-master-nightly-4.1-e2e-gcp',
    formerName: 'periodic-ci-openshift-release-master-ci-4.1-e2e-gcp',
    renameAtDay: 7.5,
    type: 'periodic', release: '4.1', platform: 'gcp', kind: 'e2e', suite: 'full', ciTest: 'e2e-gcp', everyHours: 4.25, installFailureRate: 0.15, minutes: [90, 125],
  },
  { name: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-gcp', type: 'periodic', release: '4.2', platform: 'gcp', kind: 'e2e', suite: 'full', ciTest: 'e2e-gcp', everyHours: 4.25, installFailureRate: 0.15, minutes: [90, 125] },
  { name: 'periodic-ci-openshift-release-master-nightly-4.1-e2e-azure', type: 'periodic', release: '4.1', platform: 'azure', kind: 'e2e', suite: 'full', ciTest: 'e2e-azure', everyHours: 4.25, minutes: [95, 135] },
  { name: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-azure', type: 'periodic', release: '4.2', platform: 'azure', kind: 'e2e', suite: 'full', ciTest: 'e2e-azure', everyHours: 4.25, minutes: [95, 135] },
  { name: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade', type: 'periodic', release: '4.2', platform: 'aws', kind: 'upgrade', suite: 'minimal', ciTest: 'e2e-aws-upgrade', everyHours: 4.25, minutes: [130, 170] },
  { name: 'pull-ci-openshift-origin-master-e2e-aws', type: 'presubmit', release: '4.2', platform: 'aws', kind: 'e2e', suite: 'full', ciTest: 'e2e-aws', perDay: 7, org: 'openshift', repo: 'origin', legacyPrPath: true, minutes: [80, 115] },
  { name: 'pull-ci-openshift-installer-master-e2e-aws', type: 'presubmit', release: '4.2', platform: 'aws', kind: 'e2e', suite: 'full', ciTest: 'e2e-aws', perDay: 6, org: 'openshift', repo: 'installer', junitWrapper: true, minutes: [80, 115] },
  { name: 'release-promote-openshift-machine-os-content-e2e-aws-4.1', type: 'periodic', release: '4.1', platform: 'aws', kind: 'promotion', suite: 'minimal', ciTest: 'e2e-aws', perDay: 3, minutes: [70, 95] },
  { name: 'release-promote-openshift-machine-os-content-e2e-aws-4.2', type: 'periodic', release: '4.2', platform: 'aws', kind: 'promotion', suite: 'minimal', ciTest: 'e2e-aws', perDay: 3, minutes: [70, 95] },
];

export const BUCKET = 'origin-ci-test';
export const STREAMS = { '4.1': '4.1.0-0.nightly', '4.2': '4.2.0-0.nightly' } as const;
export const RELEASE_REGISTRY = 'registry.ci.openshift.org/ocp/release';
export const RELEASE_ARTIFACTS = 'https://openshift-release-artifacts.apps.ci.l2s4.p1.openshiftapps.com';
/** stands for the replay server's base URL in stored files; the server substitutes its own */
export const REPLAY_PLACEHOLDER = 'http://REPLAY';

export const PROMOTION_GATES = [
  { name: 'machine-os-content 4.1', release: '4.1' as const, blockingJobs: ['release-promote-openshift-machine-os-content-e2e-aws-4.1'], informingJobs: [] as string[] },
  {
    name: 'machine-os-content 4.2',
    release: '4.2' as const,
    blockingJobs: ['release-promote-openshift-machine-os-content-e2e-aws-4.2'],
    informingJobs: ['periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade'],
  },
];

/** release-controller verification: short name → job, per stream */
export const VERIFY = {
  '4.1': { blocking: { aws: 'periodic-ci-openshift-release-master-nightly-4.1-e2e-aws' }, informing: { gcp: 'periodic-ci-openshift-release-master-nightly-4.1-e2e-gcp', azure: 'periodic-ci-openshift-release-master-nightly-4.1-e2e-azure' } },
  '4.2': {
    blocking: { aws: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws' },
    informing: { gcp: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-gcp', azure: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-azure', upgrade: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade' },
  },
} as const;

// ---- scenario tests ----------------------------------------------------------------------------

export const SCENARIO = {
  flaky: FLAKY_TEST,
  /** passes until the 4.2 payload change, then fails in ~60% of 4.2 runs */
  regression: '[sig-network] Services should be able to create a functioning NodePort service [Suite:openshift/conformance/parallel] [Suite:k8s]',
  /** fails in every run of the azure 4.2 job */
  broken: '[sig-storage] In-tree Volumes [Driver: azure-disk] [Testpattern: Dynamic PV (default fs)] subPath should support existing directory [Suite:openshift/conformance/parallel] [Suite:k8s]',
  brokenJob: 'periodic-ci-openshift-release-master-nightly-4.2-e2e-azure',
  /** fails only in runs where the cluster falls over */
  infra: '[sig-arch] Managed cluster should have no crashlooping pods in core namespaces over four minutes [Suite:openshift/conformance/parallel]',
  /** never fails before the window, ~5 times inside it */
  newInWindow: '[sig-cli] oc adm must-gather runs successfully [Suite:openshift/conformance/parallel]',
  /** named in a Bugzilla bug closed (ERRATA) partway through; keeps failing afterwards */
  recurred: '[sig-apps] StatefulSet [k8s.io] Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates and roll backs of template modifications [Conformance] [Suite:openshift/conformance/parallel/minimal] [Suite:k8s]',
  /** named in a kubernetes/kubernetes GitHub issue body */
  githubLinked: '[sig-network] DNS should provide DNS for services [Conformance] [Suite:openshift/conformance/parallel/minimal] [Suite:k8s]',
  /** fails in the 4.1 promotion job's last three runs */
  promotionBlocker: '[sig-node] Kubelet when scheduling a busybox command in a pod should print the output to logs [NodeConformance] [Conformance] [Suite:openshift/conformance/parallel/minimal] [Suite:k8s]',
  installStep: 'install should succeed: infrastructure',
  /** from a later 4.2 payload fails ~40% of 4.2 runs, a third of them passing on retry; never on 4.1 */
  intermittentRegression: '[sig-network] Conntrack should be able to preserve UDP traffic when server pod cycles for a NodePort service [Suite:openshift/conformance/parallel] [Suite:k8s]',
  /** flakes in ~12% of runs until a fix lands partway through the world, then never again */
  fixedFlake: '[sig-network][Feature:Router] The HAProxy router should respond with 503 to unrecognized hosts [Suite:openshift/conformance/parallel]',
  /** fails every run on GCP (both releases, the renamed job's two names included), all along */
  brokenPlatform: '[sig-storage] In-tree Volumes [Driver: gcepd] [Testpattern: Dynamic PV (default fs)] subPath should support existing directory [Suite:openshift/conformance/parallel] [Suite:k8s]',
};

/** the mass failure: from a 4.2 payload 2.5 days before the end, 4.2 e2e runs (nightlies on that payload,
 * presubmits started since) lose their API server and about 69 tests fail in each with one signature
 * (the long-lived flake among them) */
export const INCIDENT = { release: '4.2' as const, kind: 'e2e' as const, startBeforeEndHours: 60, testsPerRun: [64, 74] as [number, number], pool: 76 };

/** other tests with a small background failure rate (only where they run) */
export const BACKGROUND: { test: string; rate: number; template: string }[] = [
  { test: SCENARIO.recurred, rate: 0.03, template: 'statefulset' },
  { test: SCENARIO.githubLinked, rate: 0.02, template: 'dns' },
  { test: '[sig-instrumentation] Prometheus when installed on the cluster should have a AlertmanagerReceiversNotConfigured alert in firing state [Suite:openshift/conformance/parallel]', rate: 0.015, template: 'prometheus' },
  { test: '[sig-builds][Feature:Builds] Multi-stage image builds should succeed [Suite:openshift/conformance/parallel]', rate: 0.01, template: 'build' },
  { test: '[sig-network][Feature:Router] The HAProxy router should serve the correct routes when scoped to a single namespace and label set [Suite:openshift/conformance/parallel]', rate: 0.01, template: 'router' },
];

export const PR_AUTHORS = ['dgoodwin', 'jwforres', 'abhinavdahiya', 'wking', 'smarterclayton', 'deads2k', 'sttts', 'soltysh', 'mfojtik', 'staebler', 'crawford', 'vrutkovs'];

/** wrapper tests of ci-operator's junit_operator.xml, in the order ci-operator writes them */
export function operatorTestNames(ciTest: string, periodic: boolean): {
  importImage: string;
  release: string;
  pre: string;
  install: string;
  test: string;
  e2e: string;
  post: string;
  gather: string;
} {
  return {
    importImage: 'Find the input image ocp_builder_rhel-7-golang-1.12 and tag it into the pipeline',
    release: periodic ? 'Import the release payload "latest" from an external source' : 'Create the release image "latest" containing all images built by this job',
    pre: 'Run multi-stage test pre phase',
    install: `Run multi-stage test ${ciTest} - ${ciTest}-ipi-install-install container test`,
    test: 'Run multi-stage test test phase',
    e2e: `Run multi-stage test ${ciTest} - ${ciTest}-openshift-e2e-test container test`,
    post: 'Run multi-stage test post phase',
    gather: `Run multi-stage test ${ciTest} - ${ciTest}-gather-must-gather container test`,
  };
}

export const INSTALL_STEPS = [
  'install should succeed: configuration',
  'install should succeed: infrastructure',
  'install should succeed: cluster bootstrap',
  'install should succeed: other',
  'install should succeed: overall',
];
