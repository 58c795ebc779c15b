// What a real ci-operator run gathers besides the files ingest reads: each step's log and result, pod
// logs and cluster state from gather-extra, must-gather and audit archives. Real run folders hold
// thousands of these, and ingest lists run folders with a matchGlob to leave them out. Every run of
// the world that reached its steps gets the same GATHERED_PATHS under artifacts/<test>/, visible when
// it finished; their bytes are a few shared blobs (gcs-blobs/), so listings are crowded as real ones
// while the world stays small on disk.
import type { GatheredFile, WorldFile } from './types';

// No name here may contain "junit" or an "e2e" step folder: ingest would read it.
const STEPS = ['ipi-conf', 'ipi-conf-aws', 'ipi-install-rbac', 'ipi-install-install', 'gather-extra', 'gather-must-gather', 'gather-audit-logs', 'gather-core-dump', 'ipi-deprovision-deprovision'];
const PODS: [namespace: string, pods: string[]][] = [
  ['openshift-apiserver', ['apiserver-6d8f7b9c4-2xkqp', 'apiserver-6d8f7b9c4-8mzlw', 'apiserver-6d8f7b9c4-tq5vn']],
  ['openshift-kube-apiserver', ['kube-apiserver-ip-10-0-140-21', 'kube-apiserver-ip-10-0-151-88', 'kube-apiserver-ip-10-0-168-5']],
  ['openshift-etcd', ['etcd-ip-10-0-140-21', 'etcd-ip-10-0-151-88', 'etcd-ip-10-0-168-5']],
  ['openshift-kube-controller-manager', ['kube-controller-manager-ip-10-0-140-21', 'kube-controller-manager-ip-10-0-151-88']],
  ['openshift-kube-scheduler', ['openshift-kube-scheduler-ip-10-0-140-21', 'openshift-kube-scheduler-ip-10-0-151-88']],
  ['openshift-authentication', ['oauth-openshift-7c9d5f6b8-4hjkl', 'oauth-openshift-7c9d5f6b8-9qwer']],
  ['openshift-ingress', ['router-default-5f7d8c9b6-abcde', 'router-default-5f7d8c9b6-fghij']],
  ['openshift-dns', ['dns-default-2kq8z', 'dns-default-7xv4m', 'dns-default-p9r2t']],
  ['openshift-sdn', ['sdn-4bq7x', 'sdn-8kd2m', 'sdn-c5n9p', 'sdn-controller-7wz4k']],
  ['openshift-machine-api', ['machine-api-controllers-6b8d9f7c5-xk2lp', 'machine-api-operator-5c7f8d9b4-qm3nr']],
  ['openshift-monitoring', ['prometheus-k8s-0', 'prometheus-k8s-1', 'alertmanager-main-0', 'node-exporter-5hx7k']],
  ['openshift-image-registry', ['image-registry-7f9c8d6b5-m2k4p', 'cluster-image-registry-operator-6d5c8b7f9-r8t2w']],
  ['openshift-console', ['console-5b8d7c9f6-h3j9k', 'downloads-6c9f8d7b5-v4n2q']],
  ['openshift-cluster-version', ['cluster-version-operator-7d6c5b8f9-z9x8c']],
  ['openshift-marketplace', ['marketplace-operator-8f7d6c5b9-w2e3r', 'certified-operators-x7k2m']],
];
const CONTAINERS = ['main', 'setup'];
const STATE = ['clusteroperators', 'clusterversion', 'events', 'nodes', 'pods', 'machines', 'machinesets', 'namespaces'];

/** Blob names by kind, with their bytes (the paths below say which kind each file is). */
export const GATHERED_BLOBS: Record<string, string> = {
  'step-build-log.txt': Array.from({ length: 40 }, (_, i) => `INFO[2026-11-22T10:${String(i).padStart(2, '0')}:00Z] step progress ${i}\n`).join(''),
  'step-finished.json': `${JSON.stringify({ timestamp: 1763805600, passed: true, result: 'SUCCESS' })}\n`,
  'sidecar-logs.json': `${JSON.stringify([{ component: 'sidecar', level: 'info', msg: 'Finished uploading artifacts' }])}\n`,
  'pod.log': Array.from({ length: 60 }, (_, i) => `I1122 10:00:${String(i % 60).padStart(2, '0')}.000000       1 controller.go:${100 + i}] sync loop ${i}\n`).join(''),
  'state.json': `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] })}\n`,
  'archive.tar': 'ustar archive placeholder\n'.repeat(160),
  'install.log': Array.from({ length: 80 }, (_, i) => `time="2026-11-22T10:00:00Z" level=debug msg="install step ${i}"\n`).join(''),
};

/** The gathered files of a run, relative to its artifacts/<test>/ folder, with the blob of each. */
export const GATHERED_PATHS: { path: string; blob: string }[] = [
  ...STEPS.flatMap((s) => [
    { path: `${s}/build-log.txt`, blob: 'step-build-log.txt' },
    { path: `${s}/finished.json`, blob: 'step-finished.json' },
    { path: `${s}/sidecar-logs.json`, blob: 'sidecar-logs.json' },
  ]),
  ...PODS.flatMap(([ns, pods]) => pods.flatMap((p) => CONTAINERS.map((c) => ({ path: `gather-extra/artifacts/pods/${ns}_${p}_${c}.log`, blob: 'pod.log' })))),
  ...STATE.map((k) => ({ path: `gather-extra/artifacts/${k}.json`, blob: 'state.json' })),
  { path: 'gather-must-gather/artifacts/must-gather.tar', blob: 'archive.tar' },
  { path: 'gather-audit-logs/artifacts/audit-logs.tar', blob: 'archive.tar' },
  { path: 'ipi-install-install/artifacts/.openshift_install.log', blob: 'install.log' },
];

/** A run's gathered files as world files, visible at `visibleAt`, from the manifest's shared list. */
export function gatheredFilesOf(ciTest: string, visibleAt: number, shared: GatheredFile[]): (WorldFile & { blob: string })[] {
  return shared.map((g) => ({ path: `artifacts/${ciTest}/${g.path}`, visibleAt, size: g.size, md5: g.md5, blob: g.blob }));
}
