// openshift-tests names for the sample world. Real names (from the fixtures and openshift/origin's
// suites) plus names generated in the same style; the storage driver matrix gives the per-platform skips.
import { generatedTests } from './generatedTests';
import type { TemplateName } from './messages';

const P = '[Suite:openshift/conformance/parallel]';
const K = '[Suite:openshift/conformance/parallel] [Suite:k8s]';
const M = '[Suite:openshift/conformance/parallel/minimal]';
const MK = '[Suite:openshift/conformance/parallel/minimal] [Suite:k8s]';

/** k8s conformance tests: in the minimal suite, so they also run in upgrade and promotion jobs */
const CONFORMANCE: string[] = [
  '[sig-apps] DisruptionController should update/patch PodDisruptionBudget status [Conformance]',
  '[sig-apps] Deployment deployment should support rollover [Conformance]',
  '[sig-apps] Deployment RollingUpdateDeployment should delete old pods and create new ones [Conformance]',
  '[sig-apps] Deployment RecreateDeployment should delete old pods and create new ones [Conformance]',
  '[sig-apps] Deployment deployment should support proportional scaling [Conformance]',
  '[sig-apps] ReplicaSet should serve a basic image on each replica with a public image [Conformance]',
  '[sig-apps] ReplicationController should serve a basic image on each replica with a public image [Conformance]',
  '[sig-apps] ReplicationController should adopt matching pods on creation [Conformance]',
  '[sig-apps] StatefulSet [k8s.io] Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates and roll backs of template modifications [Conformance]',
  '[sig-apps] StatefulSet [k8s.io] Basic StatefulSet functionality [StatefulSetBasic] Should recreate evicted statefulset [Conformance]',
  '[sig-apps] Job should run a job to completion when tasks sometimes fail and are locally restarted [Conformance]',
  '[sig-apps] Job should delete a job [Conformance]',
  '[sig-network] Services should serve a basic endpoint from pods [Conformance]',
  '[sig-network] Services should serve multiport endpoints from pods [Conformance]',
  '[sig-network] Services should provide secure master service [Conformance]',
  '[sig-network] Services should find a service from listing all namespaces [Conformance]',
  '[sig-network] Services should have session affinity work for service with type clusterIP [LinuxOnly] [Conformance]',
  '[sig-network] DNS should provide DNS for the cluster [Conformance]',
  '[sig-network] DNS should provide DNS for services [Conformance]',
  '[sig-network] DNS should provide DNS for ExternalName services [Conformance]',
  '[sig-network] DNS should provide /etc/hosts entries for the cluster [LinuxOnly] [Conformance]',
  '[sig-network] Networking Granular Checks: Pods should function for intra-pod communication: http [LinuxOnly] [NodeConformance] [Conformance]',
  '[sig-network] Networking Granular Checks: Pods should function for intra-pod communication: udp [LinuxOnly] [NodeConformance] [Conformance]',
  '[sig-network] Networking Granular Checks: Pods should function for node-pod communication: http [LinuxOnly] [NodeConformance] [Conformance]',
  '[sig-network] Networking Granular Checks: Pods should function for node-pod communication: udp [LinuxOnly] [NodeConformance] [Conformance]',
  '[sig-network] Proxy version v1 should proxy logs on node using proxy subresource [Conformance]',
  '[sig-network] Proxy version v1 should proxy through a service and a pod [Conformance]',
  '[sig-network] Ingress API should support creating Ingress API operations [Conformance]',
  '[sig-network] EndpointSlice should create Endpoints and EndpointSlices for Pods matching a Service [Conformance]',
  '[sig-node] Pods should be submitted and removed [NodeConformance] [Conformance]',
  '[sig-node] Pods should get a host IP [NodeConformance] [Conformance]',
  '[sig-node] Pods should allow activeDeadlineSeconds to be updated [NodeConformance] [Conformance]',
  '[sig-node] Pods should support remote command execution over websockets [NodeConformance] [Conformance]',
  '[sig-node] Probing container should be restarted with a exec "cat /tmp/health" liveness probe [NodeConformance] [Conformance]',
  '[sig-node] Probing container with readiness probe should not be ready before initial delay and never restart [NodeConformance] [Conformance]',
  '[sig-node] Container Runtime blackbox test on terminated container should report termination message [LinuxOnly] from file when pod succeeds and TerminationMessagePolicy FallbackToLogsOnError is set [NodeConformance] [Conformance]',
  '[sig-node] ConfigMap should be consumable via environment variable [NodeConformance] [Conformance]',
  '[sig-node] Secrets should be consumable from pods in env vars [NodeConformance] [Conformance]',
  '[sig-node] Downward API should provide pod name, namespace and IP address as env vars [NodeConformance] [Conformance]',
  '[sig-node] InitContainer [NodeConformance] should invoke init containers on a RestartAlways pod [Conformance]',
  '[sig-node] Kubelet when scheduling a busybox command in a pod should print the output to logs [NodeConformance] [Conformance]',
  '[sig-node] Lease lease API should be available [Conformance]',
  '[sig-node] Variable Expansion should allow composing env vars into new env vars [NodeConformance] [Conformance]',
  '[sig-node] PreStop should call prestop when killing a pod [Conformance]',
  '[sig-api-machinery] Garbage collector should delete pods created by rc when not orphaning [Conformance]',
  '[sig-api-machinery] Garbage collector should orphan RS created by deployment when deleteOptions.PropagationPolicy is Orphan [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a pod. [Conformance]',
  '[sig-api-machinery] ResourceQuota should create a ResourceQuota and capture the life of a secret. [Conformance]',
  '[sig-api-machinery] CustomResourceDefinition resources [Privileged:ClusterAdmin] Simple CustomResourceDefinition creating/deleting custom resource definition objects works [Conformance]',
  '[sig-api-machinery] AdmissionWebhook [Privileged:ClusterAdmin] should be able to deny pod and configmap creation [Conformance]',
  '[sig-api-machinery] AdmissionWebhook [Privileged:ClusterAdmin] should mutate custom resource [Conformance]',
  '[sig-api-machinery] Watchers should be able to restart watching from the last resource version observed by the previous watch [Conformance]',
  '[sig-api-machinery] Secrets should fail to create secret due to empty secret key [Conformance]',
  '[sig-api-machinery] Servers with support for Table transformation should return a 406 for a backend which does not implement metadata [Conformance]',
  '[sig-cli] Kubectl client Kubectl version should check is all data is printed [Conformance]',
  '[sig-cli] Kubectl client Kubectl cluster-info should check if Kubernetes control plane services is included in cluster-info [Conformance]',
  '[sig-cli] Kubectl client Guestbook application should create and stop a working application [Conformance]',
  '[sig-cli] Kubectl client Kubectl label should update the label on a resource [Conformance]',
  '[sig-cli] Kubectl client Proxy server should support proxy with --port 0 [Conformance]',
  '[sig-auth] ServiceAccounts should mount an API token into pods [Conformance]',
  '[sig-auth] ServiceAccounts should allow opting out of API token automount [Conformance]',
  '[sig-auth] Certificates API [Privileged:ClusterAdmin] should support CSR API operations [Conformance]',
  '[sig-instrumentation] Events API should ensure that an event can be fetched, patched, deleted, and listed [Conformance]',
  '[sig-scheduling] LimitRange should create a LimitRange with defaults and ensure pod has those defaults applied. [Conformance]',
  '[sig-storage] ConfigMap should be consumable from pods in volume [NodeConformance] [Conformance]',
  '[sig-storage] ConfigMap updates should be reflected in volume [NodeConformance] [Conformance]',
  '[sig-storage] Secrets should be consumable from pods in volume with defaultMode set [LinuxOnly] [NodeConformance] [Conformance]',
  '[sig-storage] Downward API volume should provide container\'s cpu limit [NodeConformance] [Conformance]',
  '[sig-storage] EmptyDir volumes should support (root,0644,tmpfs) [LinuxOnly] [NodeConformance] [Conformance]',
  '[sig-storage] EmptyDir volumes should support (non-root,0777,default) [LinuxOnly] [NodeConformance] [Conformance]',
  '[sig-storage] Subpath Atomic writer volumes should support subpaths with downward pod [Conformance]',
  '[sig-storage] Subpath Atomic writer volumes should support subpaths with configmap pod [Conformance]',
].map((n) => `${n} ${MK}`);

/** OpenShift tests in the minimal suite */
const OPENSHIFT_MINIMAL: string[] = [
  '[Conformance][sig-api-machinery][Feature:APIServer] local kubeconfig "lb-ext.kubeconfig" should be present on all masters and work',
  '[Conformance][sig-api-machinery][Feature:APIServer] local kubeconfig "localhost-recovery.kubeconfig" should be present on all masters and work',
  '[sig-apps][Feature:DeploymentConfig] deploymentconfigs when run iteratively [Conformance] should only deploy the last deployment',
  '[sig-apps][Feature:DeploymentConfig] deploymentconfigs with minimum ready seconds set [Conformance] should not transition the deployment to Complete before satisfied',
  '[sig-apps][Feature:DeploymentConfig] deploymentconfigs should respect image stream tag reference policy [Conformance] resolve the image pull spec',
  '[sig-builds][Feature:Builds][Conformance] oc new-app should succeed with a --name of 58 characters',
  '[sig-network-edge][Conformance][Area:Networking][Feature:Router] The HAProxy router should pass the h2spec conformance tests',
  '[sig-network] Internal connectivity for TCP and UDP on ports 9000-9999 is allowed',
].map((n) => `${n} ${M}`);

/** the rest of the parallel suite */
const PARALLEL: string[] = [
  ...[
    '[sig-apps] Job Using a pod failure policy to not count some failures towards the backoffLimit Ignore DisruptionTarget condition',
    '[sig-apps] CronJob should schedule multiple jobs concurrently',
    '[sig-network] Services should be able to create a functioning NodePort service',
    '[sig-network] Services should be able to switch session affinity for NodePort service [LinuxOnly]',
    '[sig-network] Services should preserve source pod IP for traffic thru service cluster IP [LinuxOnly]',
    '[sig-network] NetworkPolicy [LinuxOnly] NetworkPolicy between server and client should enforce policy to allow traffic from pods within server namespace based on PodSelector [Feature:NetworkPolicy]',
    '[sig-network] NetworkPolicy [LinuxOnly] NetworkPolicy between server and client should support a \'default-deny-ingress\' policy [Feature:NetworkPolicy]',
    '[sig-network] Conntrack should be able to preserve UDP traffic when server pod cycles for a NodePort service',
    '[sig-node] Security Context should run the container with uid 65534 [LinuxOnly] [NodeConformance]',
    '[sig-node] RuntimeClass should reject a Pod requesting a non-existent RuntimeClass [NodeFeature:RuntimeHandler]',
    '[sig-node] Pods Extended Pod Container Status should never report success for a pending container',
    '[sig-api-machinery] ResourceQuota should verify ResourceQuota with terminating scopes.',
    '[sig-api-machinery] Generated clientset should create v1 cronJobs, delete cronJobs, watch cronJobs',
    '[sig-instrumentation] MetricsGrabber should grab all metrics from a Kubelet.',
    '[sig-storage] HostPath should give a volume the correct mode [LinuxOnly] [NodeConformance]',
    '[sig-storage] CSI mock volume CSI attach test using mock driver should not require VolumeAttach for drivers without attachment',
    '[sig-storage] PersistentVolumes-local  [Volume type: dir] One pod requesting one prebound PVC should be able to mount volume and read from pod1',
    '[sig-storage] Projected configMap should be consumable from pods in volume with mappings as non-root [NodeConformance]',
    '[sig-storage] Projected secret should be consumable in multiple volumes in a pod [NodeConformance]',
    '[sig-storage] Projected downwardAPI should update labels on modification [NodeConformance]',
  ].map((n) => `${n} ${K}`),
  ...[
    '[sig-scheduling][Early] The openshift-apiserver pods [apigroup:apps.openshift.io][apigroup:authorization.openshift.io][apigroup:build.openshift.io][apigroup:image.openshift.io][apigroup:project.openshift.io][apigroup:quota.openshift.io][apigroup:route.openshift.io][apigroup:security.openshift.io][apigroup:template.openshift.io] should be scheduled on different nodes',
    '[sig-node] node-lifecycle detects unreachable state on node',
    '[sig-node] node-lifecycle detects unexpected not ready node',
    '[sig-node] [Jira:Node/Kubelet] Kubelet, CRI-O, CPU manager [OTP] Allow dev fuse by default in CRI-O [OCP-70987]',
    '[Jira:Node][sig-node] Node non-cnv swap configuration should reject user override of swap settings via KubeletConfig API [OCP-86395]',
    '[sig-node] Managed cluster should report ready nodes the entire duration of the test run [Late]',
    '[sig-network][OCPFeatureGate:NetworkSegmentation][Feature:UserDefinedPrimaryNetworks] when using openshift ovn-kubernetes created using UserDefinedNetwork is isolated from the default network with L2 primary UDN',
    '[sig-network][OCPFeatureGate:NetworkSegmentation][Feature:UserDefinedPrimaryNetworks] when using openshift ovn-kubernetes created using UserDefinedNetwork is isolated from the default network with L3 primary UDN',
    '[sig-network][Feature:Router] The HAProxy router should serve the correct routes when scoped to a single namespace and label set',
    '[sig-network][Feature:Router] The HAProxy router should respond with 503 to unrecognized hosts',
    '[sig-network][Feature:Router] The HAProxy router should override the route host with a custom value',
    '[sig-network] network isolation when using a plugin that isolates namespaces by default should allow communication from default to non-default namespace on the same node',
    '[sig-apps][Feature:DeploymentConfig] deploymentconfigs with failing hook should get all logs from retried hooks',
    '[sig-apps][Feature:DeploymentConfig] deploymentconfigs rolled back should rollback to an older deployment',
    '[sig-apps][Feature:DeploymentConfig] deploymentconfigs adoption will orphan all RCs and adopt them back when recreated',
    '[sig-api-machinery][Feature:APIServer][Late] kubelet terminates kube-apiserver gracefully',
    '[sig-api-machinery][Feature:ServerSideApply] Server-Side Apply should work for security.openshift.io/v1, Resource=rangeallocations',
    '[sig-cli] oc adm must-gather runs successfully',
    '[sig-cli] oc debug ensure it works with image streams',
    '[sig-cli] oc observe works as expected',
    '[sig-cli] policy scc-subject-review, scc-review',
    '[sig-auth][Feature:OAuthServer] [Headers] expected headers returned from the authorize URL',
    '[sig-auth][Feature:SecurityContextConstraints] TestPodDefaultCapabilities',
    '[sig-auth][Feature:OpenShiftAuthorization] authorization TestAuthorizationResourceAccessReview should succeed',
    '[sig-auth][Feature:ProjectAPI] TestProjectIsNamespace should succeed',
    '[sig-builds][Feature:Builds] build can reference a cluster service with a build being created from new-build should be able to run a build that references a cluster service',
    '[sig-builds][Feature:Builds] Multi-stage image builds should succeed',
    '[sig-builds][Feature:Builds] s2i build with a root user image should create a root build and pass with a privileged SCC',
    '[sig-builds][Feature:Builds][pullsecret] docker build using a pull secret Building from a template should create a docker build that pulls using a secret run it',
    '[sig-imageregistry][Feature:ImageTriggers] Annotation trigger reconciles after the image is overwritten',
    '[sig-imageregistry][Feature:ImageLookup] Image policy should update standard Kube object image fields when local names are on',
    '[sig-imageregistry][Feature:Image] oc tag should change image reference for internal images',
    '[sig-imageregistry][Feature:ImageInfo] Image info should display information about images',
    '[sig-instrumentation] Prometheus when installed on the cluster should start and expose a secured proxy and unsecured metrics',
    '[sig-instrumentation] Prometheus when installed on the cluster should have a AlertmanagerReceiversNotConfigured alert in firing state',
    '[sig-instrumentation][Late] Alerts shouldn\'t report any alerts in firing state apart from Watchdog and AlertmanagerReceiversNotConfigured [Early]',
    '[sig-arch] Managed cluster should have no crashlooping pods in core namespaces over four minutes',
    '[sig-arch] Managed cluster should ensure pods use downstream images from our release image with proper ImagePullPolicy',
    '[sig-arch][Early] Managed cluster should start all core operators',
    '[sig-arch] ClusterOperators should define at least one namespace in their lists of related objects',
    '[sig-cluster-lifecycle] Pods cannot access the /config/master API endpoint',
    '[sig-operator] OLM should be installed with catalogsources at version v1alpha1',
    '[sig-operator] an end user can use OLM can subscribe to the operator',
    '[sig-etcd] etcd leader changes are not excessive [Late]',
    '[sig-storage] Managed cluster should have no crashlooping recycler pods over four minutes',
  ].map((n) => `${n} ${P}`),
];

const DRIVERS: { driver: string; platform?: string }[] = [
  { driver: 'aws', platform: 'aws' },
  { driver: 'gcepd', platform: 'gcp' },
  { driver: 'azure-disk', platform: 'azure' },
  { driver: 'csi-hostpath' },
  { driver: 'emptydir' },
];
const PATTERNS = ['Dynamic PV (default fs)', 'Pre-provisioned PV (ext4)', 'Inline-volume (default fs)'];
const BEHAVIOURS = [
  'subPath should support existing directory',
  'subPath should support readOnly directory specified in the volumeMount',
  'volumes should store data',
  'provisioning should provision storage with mount options',
];

/** The in-tree storage matrix; a test naming a cloud driver runs only on that cloud. */
function storageMatrix(): { name: string; platform?: string }[] {
  const out: { name: string; platform?: string }[] = [];
  for (const { driver, platform } of DRIVERS) {
    for (const pattern of PATTERNS) {
      if (driver === 'emptydir' && !pattern.startsWith('Inline')) continue;
      for (const behaviour of BEHAVIOURS) {
        if (behaviour.startsWith('provisioning') && !pattern.startsWith('Dynamic')) continue;
        const prefix = driver === 'csi-hostpath' ? '[sig-storage] CSI Volumes' : '[sig-storage] In-tree Volumes';
        out.push({ name: `${prefix} [Driver: ${driver}] [Testpattern: ${pattern}] ${behaviour} ${K}`, platform });
      }
    }
  }
  // a real fixture name, azure only
  out.push({
    name: `[sig-storage] In-tree Volumes [Driver: azure-file] [Testpattern: Dynamic PV (default fs)] fsgroupchangepolicy (Always)[LinuxOnly], pod created with an initial fsgroup, volume contents ownership changed via chgrp in first pod, new pod with different fsgroup applied to the volume contents ${K}`,
    platform: 'azure',
  });
  return out;
}

export interface CatalogTest {
  name: string;
  /** in the minimal suite (upgrade and promotion jobs run only these) */
  minimal: boolean;
  /** runs only on this cloud; skipped elsewhere */
  platform?: string;
  /** a generated test (`--tests N`): fails in this share of its runs, with this template's text */
  background?: { rate: number; template: TemplateName };
}

export const FLAKY_TEST =
  '[sig-apps][Feature:DeploymentConfig] deploymentconfigs keep the deployer pod invariant valid [Conformance] should deal with config change in case the deployment is still running [Suite:openshift/conformance/parallel/minimal] [Suite:k8s]';
export const XSS_TEST = `[sig-xss] renders <img src=x onerror=alert(1)> as text ${P}`;
export const MONITOR_TEST = '[sig-arch] Monitor cluster while tests execute';
/** first appears inside the 7-day window */
export const NEW_SUITE_TEST = `[sig-node] Pods Extended Pod Container lifecycle evicted pods should be terminal ${K}`;
/** last appears before the 7-day window */
export const REMOVED_SUITE_TEST = `[sig-cli] oc explain should contain proper spec+status for CRDs ${P}`;

export const UPGRADE_TESTS = [
  '[sig-cluster-lifecycle] Cluster version operator acknowledges upgrade',
  '[sig-cluster-lifecycle] cluster upgrade should complete in a reasonable time',
  '[sig-arch] Check if alerts are firing during or after upgrade success',
  '[sig-api-machinery] Kubernetes APIs remain available with reused connections',
  '[sig-network-edge] Application behind service load balancer with PDB is not disrupted',
  '[sig-mco] Machine config pools complete upgrade',
  '[sig-node] nodes should not go unready after being upgraded and go unready only once',
];

/**
 * The world's openshift-tests catalog; with `total` (`--tests N`) larger than it, generated tests
 * make up the difference (lib/world/generatedTests.ts).
 */
export function catalogTests(total?: number): CatalogTest[] {
  const tests: CatalogTest[] = [
    ...CONFORMANCE.map((name) => ({ name, minimal: true })),
    ...OPENSHIFT_MINIMAL.map((name) => ({ name, minimal: true })),
    { name: FLAKY_TEST, minimal: true },
    ...PARALLEL.map((name) => ({ name, minimal: false })),
    ...storageMatrix().map(({ name, platform }) => ({ name, platform, minimal: false })),
    { name: XSS_TEST, minimal: false },
    { name: NEW_SUITE_TEST, minimal: false },
    { name: REMOVED_SUITE_TEST, minimal: false },
  ];
  if (total === undefined || total <= tests.length) return tests;
  for (const g of generatedTests(total - tests.length)) tests.push({ name: g.name, minimal: g.minimal, background: { rate: g.failureRate, template: g.template } });
  return tests;
}
