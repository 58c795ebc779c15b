import { describe, expect, it } from 'vitest';
import { ignoreMatcher, jobVariants, normalizeTestName, testOwner } from '../../lib/parse/variants';
import { describeFixtures, readFixture } from '../fixtures';

describe('jobVariants', () => {
  it('reads the usual OpenShift job names', () => {
    expect(jobVariants('pull-ci-openshift-origin-master-e2e-aws')).toEqual({ kind: 'presubmit', platform: 'aws', upgrade: false });
    expect(jobVariants('release-promote-openshift-machine-os-content-e2e-aws-4.1')).toEqual({ kind: 'release', platform: 'aws', release: '4.1', upgrade: false });
    expect(jobVariants('periodic-ci-openshift-release-master-nightly-4.2-e2e-aws-upgrade')).toEqual({ kind: 'periodic', platform: 'aws', release: '4.2', upgrade: true });
    expect(jobVariants('release-openshift-origin-installer-e2e-aws-upgrade-4.1-to-4.2')).toEqual({ kind: 'release', platform: 'aws', release: '4.2', upgrade: true });
    expect(jobVariants('branch-ci-openshift-origin-master-images')).toEqual({ kind: 'postsubmit', upgrade: false });
    expect(jobVariants('something-else')).toEqual({ kind: 'other', upgrade: false });
    expect(jobVariants('')).toEqual({ kind: 'other', upgrade: false });
  });

  it('takes the target of upgrade chains and ignores the "from" release', () => {
    expect(jobVariants('release-openshift-origin-installer-e2e-aws-upgrade-4.12-to-4.13-to-4.14-to-4.15-ci').release).toBe('4.15');
    expect(jobVariants('periodic-ci-openshift-release-master-ci-4.13-upgrade-from-stable-4.12-e2e-azure-ovn-upgrade').release).toBe('4.13');
    expect(jobVariants('periodic-ci-openshift-multiarch-master-nightly-4.18-upgrade-from-nightly-4.17-ocp-ovn-remote-libvirt-multi-z-z'))
      .toEqual({ kind: 'periodic', release: '4.18', upgrade: true, platform: 'libvirt', network: 'ovn', arch: 'multi' });
  });

  it('reads network, arch, install method and platform aliases', () => {
    expect(jobVariants('periodic-ci-openshift-release-master-nightly-4.12-e2e-azure-ovn-upi')).toMatchObject({ platform: 'azure', network: 'ovn', install: 'upi' });
    expect(jobVariants('periodic-ci-openshift-release-master-nightly-4.16-e2e-metal-ipi-ovn-dualstack')).toMatchObject({ platform: 'metal', install: 'ipi' });
    expect(jobVariants('periodic-ci-openshift-release-master-nightly-4.12-e2e-baremetalds-kni')).toMatchObject({ platform: 'metal' });
    expect(jobVariants('promote-release-openshift-machine-os-content-e2e-aws-4.10-ppc64le')).toMatchObject({ kind: 'release', release: '4.10', arch: 'ppc64le' });
    expect(jobVariants('periodic-ci-openshift-release-master-nightly-4.20-e2e-rosa-sts-hypershift-ovn')).toMatchObject({ platform: 'aws', install: 'hypershift' });
    expect(jobVariants('periodic-ci-quay-quay-tests-master-omr-ocp412-quay-omr-tests-omr-ocp412-disconnected').release).toBe('4.12');
  });
});

describeFixtures('jobVariants on the 852 real job names of ocp_never_stable.txt', () => {
  const names = (): string[] => readFixture('prow-deck/ocp_never_stable.txt').split('\n').map((l) => l.trim()).filter(Boolean);

  it('gives every name a kind that matches its prefix', () => {
    const all = names();
    expect(all).toHaveLength(852);
    for (const name of all) {
      const { kind } = jobVariants(name);
      if (name.startsWith('periodic-')) expect(kind).toBe('periodic');
      else if (name.startsWith('release-') || name.startsWith('promote-release-')) expect(kind).toBe('release');
      else expect(kind, name).toBe('other');
    }
  });

  it('finds a release for almost every name, and it is written in the name', () => {
    const all = names();
    const withRelease = all.filter((n) => jobVariants(n).release);
    // measured 832/852; the rest only name other products' versions (ocm-2.11, backplane-2.8, quay313) or none
    expect(withRelease.length).toBeGreaterThanOrEqual(820);
    for (const name of withRelease) {
      const release = jobVariants(name).release!;
      expect(release).toMatch(/^[34]\.\d{1,2}$/);
      const [major, minor] = release.split('.');
      expect(name.includes(release) || name.includes(`${major}-${minor}`) || name.includes(`ocp${major}${minor}`), name).toBe(true);
    }
    // every name with exactly one dotted 4.x release gets that release
    for (const name of all) {
      const versions = name.match(/(?<![\d.])4\.\d{1,2}(?![\d.])/g) ?? [];
      if (versions.length === 1) expect(jobVariants(name).release, name).toBe(versions[0]);
    }
  });

  it('finds a platform for most names, and it is a token of the name', () => {
    const all = names();
    const withPlatform = all.filter((n) => jobVariants(n).platform);
    // measured 778/852; the rest are telco bare-metal labs ("-bm", "telco5g"), "sno-power", lightspeed, perfscale tooling
    expect(withPlatform.length).toBeGreaterThanOrEqual(770);
    const aliases: Record<string, string[]> = { metal: ['metal', 'baremetal', 'baremetalds'], aws: ['aws', 'rosa'], azure: ['azure', 'azurestack'], gcp: ['gcp', 'gce'], equinix: ['equinix', 'packet'] };
    for (const name of withPlatform) {
      const platform = jobVariants(name).platform!;
      const tokens = name.toLowerCase().split(/[-_]/);
      expect((aliases[platform] ?? [platform]).some((t) => tokens.includes(t)), name).toBe(true);
    }
    // a name whose only platform word is "aws" is on aws
    const awsOnly = all.filter((n) => n.split('-').includes('aws') && !/gcp|azure|metal|vsphere|openstack|ovirt|ibmcloud|nutanix|alibaba|libvirt|powervs|equinix|rosa/.test(n));
    expect(awsOnly.length).toBeGreaterThan(100);
    for (const name of awsOnly) expect(jobVariants(name).platform, name).toBe('aws');
  });

  it('marks upgrade jobs', () => {
    for (const name of names()) expect(jobVariants(name).upgrade, name).toBe(name.split('-').includes('upgrade'));
  });
});

describeFixtures('jobVariants against the release-controller verification jobs', () => {
  it('the release of each 4.22 nightly verification job is 4.22', () => {
    const rows = JSON.parse(readFixture('release-controller/bquxjob_65df743f_19de556b6a3.json')) as { release_verify_tag: string; prowjob_job_name: string }[];
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) {
      const tagRelease = row.release_verify_tag.split('.').slice(0, 2).join('.');
      expect(jobVariants(row.prowjob_job_name).release, row.prowjob_job_name).toBe(tagRelease);
    }
  });
});

describe('testOwner', () => {
  it('uses [sig-xxx] anywhere, then owner prefixes, then "testing"', () => {
    expect(testOwner('[sig-api-machinery][Feature:APIServer] kube-apiserver should be accessible')).toBe('api-machinery');
    expect(testOwner('Variable thing [Serial]', { node: ['Other'], storage: ['Variable'] })).toBe('storage');
    expect(testOwner('[k8s.io] Variable thing', { node: ['Variable'] })).toBe('node');
    expect(testOwner('Overall', { node: ['Variable'] })).toBe('testing');
    expect(testOwner('')).toBe('testing');
  });

  it('normalizeTestName drops [tags] and {params}', () => {
    expect(normalizeTestName('[sig-x] a {b}  [Slow] c ')).toBe('a c');
  });
});

describeFixtures('testOwner against triage', () => {
  it('matches every annotate_owners vector of triage', () => {
    const vectors = JSON.parse(readFixture('triage/triage_test_vectors.json')).go_tests.annotate_owners.cases as
      { test_name: string; owners: Record<string, string[]>; expected_owner: string }[];
    expect(vectors.length).toBeGreaterThanOrEqual(4);
    for (const v of vectors) expect(testOwner(v.test_name, v.owners), v.test_name).toBe(v.expected_owner);
  });
});

describe('ignoreMatcher', () => {
  it('leaves out wrapper tests by default and install or setup steps never', () => {
    const byDefault = ignoreMatcher(undefined);
    expect(byDefault('Run multi-stage test e2e-aws - e2e-aws-openshift-e2e-test container test')).toBe(true);
    expect(byDefault('[sig-network] Services should serve a basic endpoint')).toBe(false);
    const everything = ignoreMatcher(['.*']);
    expect(everything('[sig-network] Services should serve a basic endpoint')).toBe(true);
    expect(everything('install should succeed: infrastructure')).toBe(false);
    expect(ignoreMatcher([])('Run multi-stage test e2e-aws')).toBe(false);
  });
});
