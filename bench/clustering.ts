// Benchmark: cluster n synthetic failure texts into signatures with SignatureIndex.
//   npx tsx bench/clustering.ts [n] [templates]      (defaults 1,000,000 and 360)
// Texts come from a few hundred templates in the shapes of OpenShift/Kubernetes failures, each
// instance with fresh noise (numbers, names, UUIDs, times, hosts), Zipf-skewed so that a few templates
// are most failures. Only SignatureIndex.assign is timed; generating the texts is not.
import { pathToFileURL } from 'node:url';
import { signatureText } from '../lib/signatures/normalize';
import { EDIT_WORK_BUDGET, SignatureIndex } from '../lib/signatures/clustering';

export type Rng = () => number;

/** mulberry32: small, fast, seeded. */
export function makeRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const chars = (r: Rng, alphabet: string, n: number): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)];
  return s;
};
const HEXDIGITS = '0123456789abcdef';
const K8S = 'bcdfghjklmnpqrstvwxz2456789';
const hex = (r: Rng, n: number) => chars(r, HEXDIGITS, n);
const ip = (r: Rng) => `10.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`;
const uuid = (r: Rng) => `${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`;
const pad = (n: number) => String(n).padStart(2, '0');
const rfc3339 = (r: Rng) => `2024-${pad(int(r, 1, 12))}-${pad(int(r, 1, 28))}T${pad(int(r, 0, 23))}:${pad(int(r, 0, 59))}:${pad(int(r, 0, 59))}Z`;
const klogTime = (r: Rng) => `I${pad(int(r, 1, 12))}${pad(int(r, 1, 28))} ${pad(int(r, 0, 23))}:${pad(int(r, 0, 59))}:${pad(int(r, 0, 59))}.${int(r, 100000, 999999)}`;
const duration = (r: Rng) => pick(r, [`${int(r, 1, 59)}m${int(r, 0, 59)}.${int(r, 1, 999)}s`, `${int(r, 1, 900)}.${int(r, 1, 99)}s`, `${int(r, 1, 999)}ms`]);
const ciop = (r: Rng) => `ci-op-${chars(r, 'abcdefghijklmnopqrstuvwxyz0123456789', 8)}`;
const clusterHost = (r: Rng) => `api.${ciop(r)}-${chars(r, K8S, 5)}.${pick(r, ['origin-ci-int-aws.dev.rhcloud.com', 'ci.azure.devcluster.openshift.com', 'gcp-2.ci.openshift.org'])}`;
const node = (r: Rng) => pick(r, [`ip-10-0-${int(r, 0, 255)}-${int(r, 0, 255)}.ec2.internal`, `ci-op-${chars(r, K8S, 8)}-${chars(r, K8S, 5)}-worker-${pick(r, ['a', 'b', 'c'])}-${chars(r, K8S, 5)}`, `nodes-us-east1-${pick(r, ['b', 'c', 'd'])}-${chars(r, K8S, 4)}`]);

const AREAS = ['builds', 'deployments', 'images', 'router', 'networking', 'storage', 'apiserver', 'cli', 'templates', 'operators', 'etcd', 'auth', 'prometheus', 'scheduling', 'kubelet', 'machines'];
const WORDS = ['registry', 'router', 'console', 'monitoring', 'ingress', 'dns', 'network', 'storage', 'authentication', 'image', 'etcd', 'scheduler', 'controller', 'kube-apiserver', 'machine-config', 'cluster-version', 'openshift-apiserver', 'marketplace', 'samples', 'insights'];
const KINDS = ['Pod', 'Deployment', 'DeploymentConfig', 'Build', 'BuildConfig', 'ImageStream', 'Route', 'Service', 'ConfigMap', 'Secret', 'ClusterOperator', 'Node', 'PersistentVolumeClaim', 'StatefulSet', 'DaemonSet', 'Job'];
const REASONS = ['timed out waiting for the condition', 'context deadline exceeded', 'the server is currently unable to handle the request', 'connection reset by peer', 'i/o timeout', 'no route to host', 'EOF', 'etcdserver: request timed out', 'the object has been modified; please apply your changes to the latest version and try again', 'Unauthorized'];
const FUNCS = ['Run', 'Wait', 'Poll', 'Get', 'List', 'Watch', 'Sync', 'Reconcile', 'Handle', 'Apply', 'Update', 'Create', 'Delete', 'Process', 'worker', 'processNextWorkItem'];
const PKGS = ['k8s.io/client-go/tools/cache', 'k8s.io/apimachinery/pkg/util/wait', 'github.com/openshift/origin/test/extended/util', 'k8s.io/kubernetes/test/e2e/framework', 'github.com/onsi/ginkgo/internal/leafnodes', 'github.com/openshift/library-go/pkg/controller/factory', 'k8s.io/client-go/rest', 'net/http', 'runtime', 'github.com/openshift/origin/pkg/test/ginkgo'];

type Template = (r: Rng) => string;

/** One template: its fixed parts are drawn from `t` once; the noise is drawn from `r` per instance. */
function makeTemplate(t: Rng, index: number): Template {
  const area = pick(t, AREAS);
  const file = `github.com/openshift/origin/test/extended/${area}/${area}${index % 7 === 0 ? '' : `_${pick(t, FUNCS).toLowerCase()}`}.go`;
  const line = int(t, 40, 2400);
  const kind = pick(t, KINDS);
  const word = pick(t, WORDS);
  const reason = pick(t, REASONS);
  const fail = (msg: string) => `fail [${file}:${line}]: ${msg}`;
  switch (index % 12) {
    case 0:
      return (r) => fail(`Unexpected error:\n    <*errors.errorString | 0xc${hex(r, 9)}>: {\n        s: "${reason}",\n    }\n    ${reason}\noccurred`);
    case 1:
      return (r) => fail(`Expected\n    <int>: ${int(r, 0, 3)}\nto equal\n    <int>: ${int(r, 1, 5)}\n${kind} ${word} in namespace e2e-test-${area}-${chars(r, K8S, 5)} did not reach the expected state`);
    case 2: // the Kubelet race: resource versions, pod names and times differ per run
      return (r) => fail(`Expected pod ${word}-test-${int(r, 1, 3)}-deploy to be Failed after deletion\nobject.ObjectMeta.ResourceVersion: a: "${int(r, 10000, 999999)}" b: "${int(r, 10000, 999999)}"\nobject.Status.Phase: a: "Failed" b: "${pick(t, ['Succeeded', 'Running'])}"\nobject.Status.ContainerStatuses[0].State.Terminated.FinishedAt: a: "${rfc3339(r)}" b: "${rfc3339(r)}"`);
    case 3: // TLS handshake timeouts against random cluster hosts, from many tests
      return (r) => `Get "https://${clusterHost(r)}:6443/api/v1/namespaces/e2e-test-${area}-${chars(r, K8S, 5)}/${kind.toLowerCase()}s?timeout=32s": net/http: TLS handshake timeout`;
    case 4:
      return (r) => `error dialing backend: dial tcp ${ip(r)}:10250: ${reason}\npod ${word}-${chars(r, K8S, 10)}-${chars(r, K8S, 5)} on node ${node(r)} not ready after ${duration(r)}`;
    case 5: {
      // long Go stack traces, 2-8 KB
      const frames = Array.from({ length: int(t, 12, 45) }, () => [pick(t, PKGS), pick(t, FUNCS) + pick(t, FUNCS), int(t, 20, 900)] as const);
      return (r) => {
        let s = `panic: runtime error: invalid memory address or nil pointer dereference [recovered]\n\tpanic: ${reason}\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x${hex(r, 2)} pc=0x${hex(r, 7)}]\n\ngoroutine ${int(r, 1, 5000)} [running]:\n`;
        for (const [pkg, fn, ln] of frames) {
          s += `${pkg}.(*${kind}).${fn}(0xc${hex(r, 9)}, 0xc${hex(r, 9)}, 0x${hex(r, 2)})\n\t/go/src/${pkg}/${fn.toLowerCase()}.go:${ln} +0x${hex(r, 3)}\n`;
        }
        return s + `created by ${frames[0][0]}.${frames[0][1]}\n\t/go/src/${frames[0][0]}/x.go:${frames[0][2]} +0x${hex(r, 3)}`;
      };
    }
    case 6:
      return pick(t, [
        () => 'exit status 1',
        (r: Rng) => `error: exit status ${int(r, 1, 2)}`,
        () => `command "oc adm ${word} --all" failed: exit status 1`,
      ]);
    case 7:
      return (r) => `${klogTime(r)}    ${int(r, 1, 99999)} reflector.go:${line}] k8s.io/client-go/informers/factory.go:${int(t, 100, 140)}: Failed to watch *v1.${kind}: ${reason} (get ${kind.toLowerCase()}s.${word}.openshift.io)`;
    case 8:
      return (r) => `Failed to pull image "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${hex(r, 64)}": rpc error: code = Unknown desc = ${reason}\nBack-off pulling image for pod ${word}-${chars(r, K8S, 9)}-${chars(r, K8S, 5)} in namespace ${ciop(r)}`;
    case 9:
      return (r) => fail(`Cluster operator ${word} is ${pick(t, ['Degraded', 'not Available', 'Progressing'])} since ${rfc3339(r)}: ${kind}Controller${pick(t, ['Degraded', 'Failing'])}: ${reason}\n${int(r, 1, 3)} of ${int(r, 3, 6)} replicas are ready (observed generation ${int(r, 1, 9)})`);
    case 10:
      return (r) => fail(`Timed out after ${duration(r)}.\nExpected route "${word}-${pick(r, WORDS)}" in namespace "e2e-test-${area}-${chars(r, K8S, 5)}" to be admitted by router ${node(r)}, but it reported: ${reason}`);
    default:
      return (r) => `${rfc3339(r)} Watch for ${kind} ${word} in namespace ${ciop(r)} failed after ${int(r, 1000, 99999)} events (last resourceVersion=${int(r, 100000, 9999999)}, uid ${uuid(r)}): ${reason}`;
  }
}

export interface TextGenerator {
  next(): string;
  templates: number;
}

/** Zipf-skewed (s = 1.1) texts over `templates` templates. */
export function failureTexts(seed = 1, templates = 360): TextGenerator {
  const t = makeRng(seed);
  const made = Array.from({ length: templates }, (_, i) => makeTemplate(t, i));
  // shuffle so that popular templates are of every shape
  for (let i = made.length - 1; i > 0; i--) {
    const j = Math.floor(t() * (i + 1));
    [made[i], made[j]] = [made[j], made[i]];
  }
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < templates; i++) cumulative.push((total += 1 / Math.pow(i + 1, 1.1)));
  const r = makeRng(seed * 7919 + 1);
  return {
    templates,
    next() {
      const x = r() * total;
      let lo = 0;
      let hi = templates - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return made[lo](r);
    },
  };
}

export async function benchClustering(
  n = 1_000_000,
  templates = 360,
): Promise<{ texts: number; signatures: number; seconds: number; perSecond: number; cpuSeconds: number }> {
  const texts = failureTexts(1, templates);
  const index = new SignatureIndex();
  const batch: string[] = new Array(10_000);
  let elapsed = 0;
  let cpu = 0; // this process's CPU time in assign: what the figure is on a machine shared with others
  for (let done = 0; done < n; ) {
    const size = Math.min(batch.length, n - done);
    for (let i = 0; i < size; i++) batch[i] = texts.next();
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < size; i++) index.assign(batch[i]);
    const used = process.cpuUsage(cpuStart);
    cpu += (used.user + used.system) / 1e6;
    elapsed += performance.now() - start;
    done += size;
    await new Promise((resolve) => setImmediate(resolve)); // let a caller's event loop breathe
  }
  const seconds = elapsed / 1000;
  return { texts: n, signatures: index.size, seconds, perSecond: n / seconds, cpuSeconds: cpu };
}

/**
 * Log tails that join nothing (lines of the same kinds, other ones in another order each run): near
 * every earlier tail by ngrams, so a search compares with all of them unless its edit work is
 * bounded (EDIT_WORK_BUDGET). Milliseconds to assign a new tail with `n` such signatures stored.
 */
export function benchUnmatchedTails(n = 1000, probes = 10): { signatures: number; budgetedMs: number; exhaustiveMs: number } {
  const r = makeRng(5);
  const lines = Array.from({ length: 300 }, () => `${pick(r, ['passed', 'passed', 'skipped', 'failed'])}: (${duration(r)}) ${rfc3339(r)} "[sig-${pick(r, AREAS)}] ${pick(r, KINDS)} ${pick(r, WORDS)} should ${pick(r, FUNCS).toLowerCase()} ${pick(r, REASONS).split(' ')[0]} [Suite:openshift/conformance/parallel]"`);
  const tail = () => Array.from({ length: 100 }, () => pick(r, lines)).join('\n');
  // stored signatures of n tails (each its own: registering does not search)
  const stored = Array.from({ length: n }, (_, i) => ({ id: i + 1, hash: `h${i}`, text: signatureText(tail()) }));
  const probe = Array.from({ length: probes }, tail);
  const msPerAssign = (budget: number) => {
    const index = new SignatureIndex(stored, { editWorkBudget: budget });
    const start = performance.now();
    for (const t of probe) index.assign(t);
    return (performance.now() - start) / probes;
  };
  return { signatures: n, budgetedMs: msPerAssign(EDIT_WORK_BUDGET), exhaustiveMs: msPerAssign(Infinity) };
}

/** signatureText alone over a sample: texts and M chars (UTF-16 units) per second of wall and CPU time. */
export function benchNormalize(sample = 50_000): { texts: number; perSecond: number; megacharsPerSecond: number; perCpuSecond: number } {
  const gen = failureTexts(2);
  const texts = Array.from({ length: sample }, () => gen.next());
  const chars = texts.reduce((sum, s) => sum + s.length, 0);
  for (const s of texts.slice(0, 5000)) signatureText(s); // let the JIT settle first
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (const s of texts) signatureText(s);
  const used = process.cpuUsage(cpuStart);
  const seconds = (performance.now() - start) / 1000;
  const cpuSeconds = (used.user + used.system) / 1e6;
  return { texts: sample, perSecond: sample / seconds, megacharsPerSecond: chars / 1e6 / seconds, perCpuSecond: sample / cpuSeconds };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const templates = Number(process.argv[3] ?? 360);
  const norm = benchNormalize();
  console.log(
    `signatureText: ${Math.round(norm.perSecond)} texts/s, ${norm.megacharsPerSecond.toFixed(1)} M chars/s ` +
      `(${Math.round(norm.perCpuSecond)} texts per CPU second; sample of ${norm.texts})`,
  );
  const tails = benchUnmatchedTails();
  console.log(
    `a new log tail against ${tails.signatures} stored tails it does not join: ${tails.budgetedMs.toFixed(0)} ms ` +
      `(without the edit-work budget: ${tails.exhaustiveMs.toFixed(0)} ms)`,
  );
  const result = await benchClustering(n, templates);
  console.log(
    `clustering: ${result.texts} texts -> ${result.signatures} signatures in ${result.seconds.toFixed(1)} s ` +
      `(${Math.round(result.perSecond)} texts/s; ${result.cpuSeconds.toFixed(1)} s of CPU)`,
  );
}
