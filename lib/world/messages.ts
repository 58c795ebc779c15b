// Failure output of the scenario tests: what a ginkgo test prints before openshift-tests reports it
// failed. Every template ends with the `fail [<file>:<line>]: <message>` line. Numbers, names, IPs,
// hosts and timestamps differ per run; the shape and the file:line never do (one signature each).
import type { Rng } from './rng';
import { ginkgoTime } from './format';

export interface FailureContext {
  rng: Rng;
  /** ms since epoch of the failure */
  atMs: number;
  /** the run's API server host, e.g. api.ci-op-7k2x9f4d-1a2b3.origin-ci-int-aws.dev.rhcloud.com */
  apiHost: string;
  namespace: string;
}

const ORIGIN = 'github.com/openshift/origin';
const K8S = 'k8s.io/kubernetes';

function preamble(ctx: FailureContext, sig: string, basename: string): string[] {
  const t = ginkgoTime(ctx.atMs - 40_000);
  return [
    `[BeforeEach] [Top Level]`,
    `  /go/src/${ORIGIN}/test/extended/util/test.go:58`,
    `[BeforeEach] ${sig}`,
    `  /go/src/${ORIGIN}/vendor/${K8S}/test/e2e/framework/framework.go:149`,
    `STEP: Creating a kubernetes client`,
    `${t}: INFO: >>> kubeConfig: /tmp/admin.kubeconfig`,
    `STEP: Building a namespace api object, basename ${basename}`,
    `${t}: INFO: About to run a Kube e2e test, ensuring namespace is privileged`,
  ];
}

function uerr(ctx: FailureContext, type: string): string {
  return `<${type} | 0xc00${ctx.rng.hex(7)}>`;
}

export type TemplateName =
  | 'kubeletRace' | 'regression' | 'broken' | 'tls' | 'mustGather' | 'xss' | 'statefulset' | 'dns'
  | 'prometheus' | 'build' | 'router' | 'busybox' | 'conntrack' | 'router503' | 'gcePd' | 'apiserverDown';

export const TEMPLATES: Record<TemplateName, (ctx: FailureContext) => string> = {
  /** the Kubelet status race: the deployer pod is seen Failed, then Succeeded */
  kubeletRace(ctx) {
    const { rng } = ctx;
    const ns = `e2e-test-cli-deployment-${rng.k8sSuffix()}`;
    const rv = rng.int(20000, 90000);
    const pod = `deployment-test-1-${rng.k8sSuffix()}`;
    const t = ginkgoTime(ctx.atMs);
    return [
      ...preamble(ctx, '[sig-apps][Feature:DeploymentConfig] deploymentconfigs', 'cli-deployment'),
      `${t}: INFO: Running 'oc rollout latest --namespace=${ns} dc/deployment-test'`,
      `${t}: INFO: Latest rollout of dc/deployment-test revision=1 (deployment-test-1) in progress`,
      `fail [${ORIGIN}/test/extended/deployments/util.go:754]: ${t}: deployer pod ${ns}/deployment-test-1-deploy changed unexpectedly (pod ${pod}):`,
      `object.ObjectMeta.ResourceVersion:`,
      `  a: "${rv}"`,
      `  b: "${rv + rng.int(3, 400)}"`,
      `object.Status.Phase:`,
      `  a: "Failed"`,
      `  b: "Succeeded"`,
    ].join('\n');
  },
  regression(ctx) {
    const ip = ctx.rng.ip('10.0');
    const port = ctx.rng.int(30000, 32767);
    const t = ginkgoTime(ctx.atMs);
    return [
      ...preamble(ctx, '[sig-network] Services', 'services'),
      `STEP: creating service nodeport-test with type=NodePort in namespace ${ctx.namespace}`,
      `STEP: hitting the NodePort on ${ip}:${port}`,
      `${t}: INFO: Poking "http://${ip}:${port}/echo?msg=hello"`,
      `${t}: INFO: Poke("http://${ip}:${port}/echo?msg=hello"): Get "http://${ip}:${port}/echo?msg=hello": dial tcp ${ip}:${port}: connect: connection refused`,
      `fail [${K8S}/test/e2e/network/service.go:1191]: ${t}: Could not reach HTTP service through ${ip}:${port} after 2m0s: dial tcp ${ip}:${port}: connect: connection refused`,
    ].join('\n');
  },
  broken(ctx) {
    const pvc = `pvc-${ctx.rng.k8sSuffix()}`;
    return [
      ...preamble(ctx, '[sig-storage] In-tree Volumes', 'provisioning'),
      `STEP: creating a StorageClass ${ctx.namespace}-azure-disk-sc${ctx.rng.k8sSuffix(4)}`,
      `STEP: creating a claim`,
      `${ginkgoTime(ctx.atMs)}: INFO: Waiting up to 5m0s for PersistentVolumeClaims [${pvc}] to have phase Bound`,
      `fail [${K8S}/test/e2e/storage/testsuites/base.go:366]: Unexpected error:`,
      `    ${uerr(ctx, '*errors.errorString')}: {`,
      `        s: "PersistentVolumeClaims [${pvc}] not all in phase Bound within 5m0s",`,
      `    }`,
      `    PersistentVolumeClaims [${pvc}] not all in phase Bound within 5m0s`,
      `occurred`,
    ].join('\n');
  },
  /** the cluster fell over: every API call times out in the TLS handshake */
  tls(ctx) {
    const url = `https://${ctx.apiHost}:6443/api/v1/namespaces/${ctx.namespace}`;
    return [
      `[BeforeEach] [Top Level]`,
      `  /go/src/${ORIGIN}/test/extended/util/test.go:58`,
      `STEP: Creating a kubernetes client`,
      `fail [${K8S}/test/e2e/framework/framework.go:242]: Unexpected error:`,
      `    ${uerr(ctx, '*url.Error')}: {`,
      `        Op: "Get",`,
      `        URL: "${url}",`,
      `        Err: {},`,
      `    }`,
      `    Get ${url}: net/http: TLS handshake timeout`,
      `occurred`,
    ].join('\n');
  },
  mustGather(ctx) {
    return [
      ...preamble(ctx, '[sig-cli] oc adm must-gather', 'oc-adm-must-gather'),
      `${ginkgoTime(ctx.atMs)}: INFO: Running 'oc adm must-gather --dest-dir /tmp/must-gather-${ctx.rng.int(100000000, 999999999)}'`,
      `fail [${ORIGIN}/test/extended/cli/mustgather.go:62]: must-gather pod did not complete: timed out waiting for the condition`,
    ].join('\n');
  },
  xss(ctx) {
    return [
      ...preamble(ctx, '[sig-xss]', 'xss'),
      `STEP: rendering <script>alert("xss")</script> & <b>bold</b> in ${ctx.namespace}`,
      `fail [${ORIGIN}/test/extended/xss/render.go:42]: rendered <img src=x onerror=alert(1)> as HTML: got "<b>${ctx.rng.int(1, 999)}</b>" & want text`,
    ].join('\n');
  },
  statefulset(ctx) {
    const ss = `ss2-${ctx.rng.int(0, 2)}`;
    return [
      ...preamble(ctx, '[sig-apps] StatefulSet', 'statefulset'),
      `STEP: Updating stateful set template: update image from docker.io/library/httpd:2.4.38-alpine to docker.io/library/httpd:2.4.39-alpine`,
      `${ginkgoTime(ctx.atMs)}: INFO: Waiting for Pod ${ctx.namespace}/${ss} to have revision ss2-${ctx.rng.hex(10)} update revision ss2-${ctx.rng.hex(10)}`,
      `fail [${K8S}/test/e2e/framework/statefulset/rest.go:68]: Failed waiting for state update: timed out waiting for the condition`,
    ].join('\n');
  },
  dns(ctx) {
    return [
      ...preamble(ctx, '[sig-network] DNS', 'dns'),
      `STEP: Running these commands on wheezy: for i in \`seq 1 600\`; do check="$(dig +notcp +noall +answer +search dns-test-service.${ctx.namespace}.svc A)" && test -n "$check" && echo OK > /results/wheezy_udp@dns-test-service; sleep 1; done`,
      `${ginkgoTime(ctx.atMs)}: INFO: Unable to read wheezy_udp@dns-test-service from pod ${ctx.namespace}/dns-test-${ctx.rng.uuid()}: the server could not find the requested resource (get pods dns-test-${ctx.rng.uuid()})`,
      `fail [${K8S}/test/e2e/network/dns_common.go:475]: Unexpected error:`,
      `    ${uerr(ctx, '*errors.errorString')}: {`,
      `        s: "timed out waiting for the condition",`,
      `    }`,
      `    timed out waiting for the condition`,
      `occurred`,
    ].join('\n');
  },
  prometheus(ctx) {
    return [
      ...preamble(ctx, '[sig-instrumentation] Prometheus', 'prometheus'),
      `${ginkgoTime(ctx.atMs)}: INFO: Running 'curl -s -k -H "Authorization: Bearer <redacted>" https://prometheus-k8s.openshift-monitoring.svc:9091/api/v1/query?query=ALERTS'`,
      `fail [${ORIGIN}/test/extended/prometheus/prometheus.go:414]: Expected`,
      `    <map[string]error | len:1>: {`,
      `        "ALERTS{alertname=\\"AlertmanagerReceiversNotConfigured\\",alertstate=\\"firing\\"} == 1": {s: "promQL query returned unexpected results: 0 results"},`,
      `    }`,
      `to be empty`,
    ].join('\n');
  },
  build(ctx) {
    return [
      ...preamble(ctx, '[sig-builds][Feature:Builds] Multi-stage image builds', 'build-multistage'),
      `${ginkgoTime(ctx.atMs)}: INFO: Build multi-stage-1 in ${ctx.namespace} phase Failed (reason GenericBuildFailed)`,
      `fail [${ORIGIN}/test/extended/builds/multistage.go:86]: build multi-stage-1 failed: error: build error: error pushing image: registry unavailable: 503 Service Unavailable`,
    ].join('\n');
  },
  router(ctx) {
    const ip = ctx.rng.ip('10.128');
    return [
      ...preamble(ctx, '[sig-network][Feature:Router] The HAProxy router', 'router-scoped'),
      `${ginkgoTime(ctx.atMs)}: INFO: Running 'curl -k -s -o /dev/null -w %{http_code} --resolve first.example.com:80:${ip} http://first.example.com/Letter'`,
      `fail [${ORIGIN}/test/extended/router/scoped.go:98]: Expected`,
      `    <string>: 503`,
      `to equal`,
      `    <string>: 200`,
    ].join('\n');
  },
  busybox(ctx) {
    const pod = `busybox-scheduling-${ctx.rng.uuid()}`;
    return [
      ...preamble(ctx, '[sig-node] Kubelet', 'kubelet-test'),
      `${ginkgoTime(ctx.atMs)}: INFO: Waiting up to 5m0s for pod "${pod}" in namespace "${ctx.namespace}" to be "Succeeded or Failed"`,
      `fail [${K8S}/test/e2e/common/node/kubelet.go:55]: Timed out after 60.000s.`,
      `Expected`,
      `    <string>: `,
      `to equal`,
      `    <string>: Hello World`,
    ].join('\n');
  },
  /** the intermittent regression: UDP packets lost while the server pod is replaced */
  conntrack(ctx) {
    const ip = ctx.rng.ip('172.30');
    return [
      ...preamble(ctx, '[sig-network] Conntrack', 'conntrack'),
      `STEP: creating a UDP service svc-udp with type=NodePort in ${ctx.namespace}`,
      `STEP: creating a client pod for probing the service svc-udp`,
      `${ginkgoTime(ctx.atMs)}: INFO: Pod client logs: ${ctx.rng.int(1, 59)} Dec 01 ${ctx.rng.int(10, 23)}:${ctx.rng.int(10, 59)}:00 UDP packet to ${ip}:80 lost`,
      `fail [${K8S}/test/e2e/network/conntrack.go:194]: Failed to connect to backend 2: pod server-2 did not receive the UDP traffic within 30s`,
    ].join('\n');
  },
  /** the flake that gets fixed: the router answers the default 503 page late */
  router503(ctx) {
    return [
      ...preamble(ctx, '[sig-network][Feature:Router] The HAProxy router', 'router-unrecognized'),
      `${ginkgoTime(ctx.atMs)}: INFO: Running 'curl -k -s -o /dev/null -w %{http_code} -H "Host: www.google.com" http://router-default.${ctx.namespace}.svc'`,
      `fail [${ORIGIN}/test/extended/router/unprivileged.go:77]: router did not answer 503 for an unrecognized host within 3m0s: last status 000 (connection reset by peer)`,
    ].join('\n');
  },
  /** broken on GCP: the gcepd storage class never provisions */
  gcePd(ctx) {
    const pvc = `pvc-${ctx.rng.k8sSuffix()}`;
    return [
      ...preamble(ctx, '[sig-storage] In-tree Volumes', 'provisioning'),
      `STEP: creating a StorageClass ${ctx.namespace}-gcepd-sc${ctx.rng.k8sSuffix(4)}`,
      `fail [${K8S}/test/e2e/storage/testsuites/base.go:366]: failed to provision volume with StorageClass "${ctx.namespace}-gcepd-sc": googleapi: Error 400: Invalid value for field 'resource.type': 'pd-standard-legacy'. Disk type is deprecated, invalid`,
      `    PersistentVolumeClaims [${pvc}] not all in phase Bound within 5m0s`,
    ].join('\n');
  },
  /** the mass failure: the kube-apiserver behind the load balancer stops answering */
  apiserverDown(ctx) {
    const url = `https://${ctx.apiHost}:6443/api/v1/namespaces/${ctx.namespace}/pods`;
    return [
      `STEP: Building a namespace api object, basename ${ctx.namespace.replace(/^e2e-test-/, '')}`,
      `fail [${K8S}/test/e2e/framework/framework.go:256]: Unexpected error:`,
      `    ${uerr(ctx, '*errors.StatusError')}: {`,
      `        ErrStatus: {Status: "Failure", Message: "the server is currently unable to handle the request (get pods)", Reason: "ServiceUnavailable", Code: 503},`,
      `    }`,
      `    Get "${url}": the server is currently unable to handle the request (get pods)`,
      `occurred`,
    ].join('\n');
  },
};

/** the skip text openshift-tests records for a cloud-only storage test */
export function skipMessage(testPlatform: string, jobPlatform: string): string {
  const provider = (p: string) => (p === 'gcp' ? 'gce' : p);
  return `skip [${K8S}/test/e2e/storage/drivers/in_tree.go:1141]: Only supported for providers [${provider(testPlatform)}] (not ${provider(jobPlatform)})`;
}

/** openshift-install's fatal error for a gcp infrastructure failure */
export function installFatal(rng: Rng): string {
  const net = `ci-op-${rng.k8sSuffix(8)}-${rng.hex(5)}-network`;
  return `failed to fetch Cluster: failed to generate asset "Cluster": failed to create cluster: failed to apply Terraform: error(GCPComputeBackendTimeout) from Infrastructure Provider: Creating network ${net} timed out: googleapi: Error 503: The service is currently unavailable., backendError`;
}
