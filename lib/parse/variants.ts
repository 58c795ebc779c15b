// What a Prow job name says about the run (release, platform, upgrade, …), and who owns a test.
// Job names follow loose conventions (see ../shared/fixtures/prow-deck/ocp_never_stable.txt), so every
// field except `kind` and `upgrade` is optional: undefined means "the name does not say".
import { compileRegex } from '../patterns';

export type JobKind = 'periodic' | 'presubmit' | 'postsubmit' | 'release' | 'other';

export interface JobVariants {
  /** OpenShift release, e.g. "4.12"; for upgrade jobs the target release */
  release?: string;
  platform?: string;
  upgrade: boolean;
  kind: JobKind;
  /** ovn | sdn | cilium | kuryr | calico */
  network?: string;
  /** amd64 | arm64 | ppc64le | s390x | multi */
  arch?: string;
  /** ipi | upi | agent | assisted | hypershift */
  install?: string;
}

// Name tokens (split on '-') → platform. First platform token in the name wins.
const PLATFORM_TOKENS: Record<string, string> = {
  aws: 'aws', gcp: 'gcp', gce: 'gcp', azure: 'azure', azurestack: 'azure', metal: 'metal', baremetal: 'metal',
  baremetalds: 'metal', vsphere: 'vsphere', openstack: 'openstack', ovirt: 'ovirt', ibmcloud: 'ibmcloud',
  nutanix: 'nutanix', alibaba: 'alibaba', libvirt: 'libvirt', powervs: 'powervs', equinix: 'equinix', packet: 'equinix',
  rosa: 'aws', // Red Hat OpenShift Service on AWS
};
const NETWORK_TOKENS: Record<string, string> = { ovn: 'ovn', sdn: 'sdn', cilium: 'cilium', kuryr: 'kuryr', calico: 'calico' };
const ARCH_TOKENS: Record<string, string> = {
  amd64: 'amd64', x86: 'amd64', arm64: 'arm64', aarch64: 'arm64', arm: 'arm64', ppc64le: 'ppc64le', s390x: 's390x',
  multi: 'multi', heterogeneous: 'multi',
};
const INSTALL_TOKENS: Record<string, string> = { ipi: 'ipi', upi: 'upi', agent: 'agent', assisted: 'assisted', hypershift: 'hypershift', hcp: 'hypershift' };

// An OpenShift version 3.x/4.x written with a dot, possibly glued to a prefix ("ocp4.19", "v4.14").
const DOTTED_VERSION = /(?<![\d.])([34])\.(\d{1,2})(?![\d.])/g;
// Fallbacks when no dotted version: "…-4-14-…" (any "-4-1-" could be a count, hence last resort) and
// "ocp418" as the quay jobs write it.
const DASHED_VERSION = /(?:^|-)4-(\d{1,2})(?=-|$)/;
const GLUED_OCP_VERSION = /ocp-?4(\d{2})(?![\d.])/;

function kindOf(job: string): JobKind {
  if (job.startsWith('periodic-') || job.startsWith('ci-')) return 'periodic';
  if (job.startsWith('pull-')) return 'presubmit';
  if (job.startsWith('branch-') || job.startsWith('post-')) return 'postsubmit';
  if (job.startsWith('release-') || job.startsWith('promote-release-')) return 'release';
  return 'other';
}

function releaseOf(job: string): string | undefined {
  const found: { version: string; index: number; end: number }[] = [];
  for (const m of job.matchAll(DOTTED_VERSION)) {
    found.push({ version: `${m[1]}.${m[2]}`, index: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  }
  if (found.length === 0) {
    const m = GLUED_OCP_VERSION.exec(job) ?? DASHED_VERSION.exec(job);
    return m ? `4.${Number(m[1])}` : undefined;
  }
  // "upgrade-4.1-to-4.2" and "4.12-to-4.13-to-4.14": the target is the last version of a -to- chain
  for (let k = 1; k < found.length; k++) {
    if (job.slice(found[k - 1].end, found[k].index) === '-to-') {
      let last = k;
      while (last + 1 < found.length && job.slice(found[last].end, found[last + 1].index) === '-to-') last++;
      return found[last].version;
    }
  }
  // "cnv-4.18-…-ocp4.19": a version spelled with "ocp" is the OpenShift one
  const ocp = found.find((f) => job.slice(Math.max(0, f.index - 3), f.index) === 'ocp');
  if (ocp) return ocp.version;
  // "nightly-4.18-upgrade-from-nightly-4.17": versions after "from-" are the source
  const target = found.find((f) => !/-from(?:-[a-z]+)?-[a-z]*$/.test(job.slice(Math.max(0, f.index - 20), f.index)));
  return (target ?? found[0]).version;
}

/** Release, platform, upgrade, kind, network, arch and install method as far as the job name says. */
export function jobVariants(job: string): JobVariants {
  const name = typeof job === 'string' ? job.trim().toLowerCase() : '';
  const tokens = name.split(/[-_]/);
  const out: JobVariants = { upgrade: tokens.includes('upgrade'), kind: kindOf(name) };
  const release = releaseOf(name);
  if (release) out.release = release;
  for (const t of tokens) {
    out.platform ??= PLATFORM_TOKENS[t];
    out.network ??= NETWORK_TOKENS[t];
    out.arch ??= ARCH_TOKENS[t];
    out.install ??= INSTALL_TOKENS[t];
  }
  for (const key of ['platform', 'network', 'arch', 'install'] as const) if (out[key] === undefined) delete out[key];
  return out;
}

/** A test name without its [tags] and {params}, whitespace collapsed (triage's normalize_name). */
export function normalizeTestName(name: string): string {
  return name.replace(/\[[^\]]*\]|\{[^}]*\}/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * Owner of a test as triage assigns it: the `[sig-xxx]` in the name → "xxx"; else the first owner
 * whose prefix starts the normalized name; else "testing".
 */
export function testOwner(testName: string, owners?: Record<string, string[]>): string {
  const m = /\[sig-([^\]]+)\]/.exec(testName);
  if (m) return m[1];
  if (owners) {
    const normalized = normalizeTestName(testName);
    for (const [owner, prefixes] of Object.entries(owners)) {
      if (Array.isArray(prefixes) && prefixes.some((p) => typeof p === 'string' && p && normalized.startsWith(p))) {
        return owner.replace(/_/g, '-');
      }
    }
  }
  return 'testing';
}

/** ci-operator's install step tests: when one fails, the cluster never came up. */
export const INSTALL_STEP_TEST = /^install should succeed/;

/** Install and setup step tests: their failures are the broken cluster itself (kept in the hot list). */
export const INSTALL_OR_SETUP_TEST = /^(install should succeed|.*\bsetup should succeed|.*cluster (install|bootstrap)|\[sig-sippy\] infrastructure should work)/i;

/** Wrapper tests that only mirror other results (ci-operator steps, monitors), left out by default. */
export const DEFAULT_IGNORE_TESTS = [
  '^Run multi-stage test ',
  '^Find (the|all of the) input image',
  '^All images are built and tagged into stable',
  '^Build image ',
  '^Import the release payload',
  '^Run template ',
  '^Create the release image',
  '^Tag the latest ',
  'Monitor cluster while tests execute',
  '^Overall$',
  '^job\\.initialize',
  '^operator\\.(Import the release payload|Run template|Build image)',
  '^Set up the ',
  '^Clone the correct source code into an image',
];

const matchers = new Map<string, (name: string) => boolean>();

/**
 * Whether a test is left out of the hot list (and gets no failure signature): it matches the
 * configured list, or the default one, and is not an install or setup step (those always stay in).
 * One alternation; answers remembered per name.
 */
export function ignoreMatcher(ignoreTests: string[] | undefined): (name: string) => boolean {
  const list = ignoreTests ?? DEFAULT_IGNORE_TESTS;
  const key = JSON.stringify(list);
  let m = matchers.get(key);
  if (!m) {
    // the entries are checked one by one (lib/config.ts); joined they may pass the user limit
    const joined = list.map((s) => `(?:${s})`).join('|');
    const re = list.length ? compileRegex(joined, 'ignoreTests', '', Infinity) : undefined;
    const seen = new Map<string, boolean>();
    m = (name) => {
      let v = seen.get(name);
      if (v === undefined) {
        v = !!re && re.test(name) && !INSTALL_OR_SETUP_TEST.test(name);
        if (seen.size > 200_000) seen.clear();
        seen.set(name, v);
      }
      return v;
    };
    if (matchers.size > 20) matchers.clear();
    matchers.set(key, m);
  }
  return m;
}
