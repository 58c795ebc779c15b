import { describe, expect, it } from 'vitest';
import { validateConfig, allowedHosts, historyBounds } from '../lib/config';

const full = {
  prow: { url: 'https://prow.ci.openshift.org', jobs: '^periodic-' },
  gcs: { url: 'https://storage.googleapis.com' },
  bugzilla: { url: 'https://bugzilla.redhat.com', query: 'OPEN' },
  jira: { url: 'https://issues.redhat.com', jql: 'project = OCPBUGS' },
  releaseController: { url: 'https://amd64.ocp.releases.ci.openshift.org', streams: ['4.2.0-0.nightly'] },
  promotion: [{ name: 'machine-os-content 4.1', blockingJobs: ['release-promote-openshift-machine-os-content-e2e-aws-4.1'], informingJobs: [] }],
};

describe('config', () => {
  it('accepts the documented example', () => {
    const c = validateConfig(full);
    expect(c.promotion?.[0].blockingJobs).toHaveLength(1);
    expect([...allowedHosts(c)].sort()).toEqual(
      ['amd64.ocp.releases.ci.openshift.org', 'bugzilla.redhat.com', 'issues.redhat.com', 'prow.ci.openshift.org', 'storage.googleapis.com'],
    );
  });
  it('needs only prow', () => {
    expect(validateConfig({ prow: { url: 'http://127.0.0.1:1' } }).gcs).toBeUndefined();
    expect(() => validateConfig({})).toThrow(/"prow" is required/);
  });
  it('names unknown keys and wrong types', () => {
    expect(() => validateConfig({ ...full, bugzila: {} })).toThrow(/unknown config key "bugzila"/);
    expect(() => validateConfig({ prow: { url: 'http://x', job: 'a' } })).toThrow(/unknown config key "prow.job"/);
    expect(() => validateConfig({ prow: { url: 42 } })).toThrow(/"prow.url" must be a URL string, got a number/);
    expect(() => validateConfig({ prow: { url: 'ftp://x' } })).toThrow(/"prow.url" must be an http\(s\) URL/);
    expect(() => validateConfig({ prow: { url: 'http://x', jobs: '(' } })).toThrow(/"prow.jobs" is not a valid regular expression/);
    expect(() => validateConfig({ ...full, releaseController: { url: 'http://x', streams: 'a' } })).toThrow(/"releaseController.streams" must be an array of strings/);
    expect(() => validateConfig({ ...full, promotion: [{ name: 'x' }] })).toThrow(/"promotion\[0\].blockingJobs" is required/);
    expect(() => validateConfig({ ...full, promotion: {} })).toThrow(/"promotion" must be an array/);
    expect(() => validateConfig({ prow: { url: 'http://x' }, ingest: { concurrency: 0 } })).toThrow(/"ingest.concurrency" must be a positive number, got 0/);
    expect(() => validateConfig({ prow: { url: 'http://x' }, ingest: { retries: -1 } })).toThrow(/"ingest.retries" must be a whole number, 0 or more, got -1/);
    expect(validateConfig({ prow: { url: 'http://x' }, ingest: { retries: 0 } }).ingest).toEqual({ retries: 0 });
    expect(validateConfig({ prow: { url: 'http://x' }, ingest: { standingReleases: 0 } }).ingest).toEqual({ standingReleases: 0 });
    expect(() => validateConfig({ prow: { url: 'http://x' }, ingest: { standingReleases: 2.5 } })).toThrow(/"ingest.standingReleases" must be a whole number/);
  });
  it('takes regexes as RE2 does (the engine of every pattern) and names the key of one it refuses', () => {
    expect(() => validateConfig({ prow: { url: 'http://x', jobs: '(a)\\1' } })).toThrow(/"prow.jobs" is not a valid regular expression: backreferences/);
    expect(() => validateConfig({ prow: { url: 'http://x' }, ignoreTests: ['^ok', 'x(?=y)'] })).toThrow(/"ignoreTests\[1\]" is not a valid regular expression: lookahead/);
    const gate = (blockingJobs: string[], informingJobs: string[] = []) => ({ prow: { url: 'http://x' }, promotion: [{ name: 'g', blockingJobs, informingJobs }] });
    expect(() => validateConfig(gate(['a', '(?<!b)c']))).toThrow(/"promotion\[0\].blockingJobs\[1\]" is not a valid regular expression: lookahead and lookbehind/);
    expect(() => validateConfig(gate(['a'], ['x'.repeat(2001)]))).toThrow(/"promotion\[0\].informingJobs\[0\]" is not a valid regular expression: 2001 characters, 2000 at most/);
    // (.+)+X is fine for RE2: linear in the text
    expect(validateConfig({ prow: { url: 'http://x', jobs: '(.+)+X' } }).prow.jobs).toBe('(.+)+X');
  });
  it('reads ingest.since and retention as durations, and refuses a since beyond the retention', () => {
    const prow = { url: 'http://x' };
    expect(historyBounds(validateConfig({ prow }))).toEqual({ retentionSeconds: 90 * 86_400 });
    expect(historyBounds(validateConfig({ prow, ingest: { since: '15d' }, retention: '30d' }))).toEqual({ sinceSeconds: 15 * 86_400, retentionSeconds: 30 * 86_400 });
    expect(historyBounds(validateConfig({ prow, ingest: { since: '15d' } }), '36h')).toEqual({ sinceSeconds: 36 * 3600, retentionSeconds: 90 * 86_400 });
    expect(() => validateConfig({ prow, ingest: { since: '90 days' } })).toThrow(/"ingest.since" must be a duration such as "90d" or "36h", got "90 days"/);
    expect(() => validateConfig({ prow, ingest: { since: 90 } })).toThrow(/"ingest.since" must be a duration .*got a number/);
    expect(() => validateConfig({ prow, retention: '0d' })).toThrow(/"retention" must be a duration/);
    expect(() => validateConfig({ prow, ingest: { since: '91d' } })).toThrow(/ingest.since 91d reaches further back than "retention" \(90d\)/);
    expect(() => historyBounds(validateConfig({ prow, retention: '10d' }), '15d')).toThrow(/--since 15d reaches further back than "retention" \(10d\)/);
    expect(() => historyBounds(validateConfig({ prow }), 'soon')).toThrow(/--since "soon" is not a duration/);
  });
});

describe('config keys of the buildcop\'s day (issue 22)', () => {
  const base = { prow: { url: 'https://prow.ci.openshift.org' } };
  it('accepts bug forms, owners, the artifacts template and alerts', () => {
    const c = validateConfig({
      ...base,
      prow: { ...base.prow, artifactsUrl: 'https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/{bucket}/{path}' },
      bugzilla: { url: 'https://bugzilla.redhat.com', product: 'OpenShift Container Platform', component: 'Unknown', version: '4.2.0' },
      jira: { url: 'https://issues.redhat.com', projectId: '12332330', issueType: 1 },
      owners: { 'sig-network': { bugzilla: 'Networking', jira: 'Networking' } },
      alerts: [{ url: 'https://hooks.slack.com/services/T/B/x', on: ['gate-blocked', 'stream-rejected', 'new-regression', 'new-cause'] }],
    });
    expect(c.owners?.['sig-network'].jira).toBe('Networking');
    expect(c.alerts?.[0].on).toHaveLength(4);
    // alert receivers are not sources: ingest never contacts them
    expect([...allowedHosts(c)]).not.toContain('hooks.slack.com');
  });
  it('names the key of each mistake', () => {
    expect(() => validateConfig({ ...base, bugzilla: { url: 'https://b', product: 3 } })).toThrow(/"bugzilla.product" must be a string, got a number/);
    expect(() => validateConfig({ ...base, jira: { url: 'https://j', projectId: 'OCPBUGS' } })).toThrow(/"jira.projectId" must be a numeric id .*got "OCPBUGS"/);
    expect(() => validateConfig({ ...base, jira: { url: 'https://j', issueType: 1.5 } })).toThrow(/"jira.issueType" must be a numeric id/);
    expect(() => validateConfig({ ...base, owners: { 'sig-network': { bugzila: 'x' } } })).toThrow(/unknown config key "owners.sig-network.bugzila"/);
    expect(() => validateConfig({ ...base, owners: ['x'] })).toThrow(/"owners" must be an object/);
    expect(() => validateConfig({ ...base, prow: { ...base.prow, artifactsUrl: 'https://x/{bucket}' } })).toThrow(/"prow.artifactsUrl" must hold \{path\}/);
    expect(() => validateConfig({ ...base, prow: { ...base.prow, artifactsUrl: 'https://x/{bucket}/{job}/{path}' } })).toThrow(/knows only \{bucket\} and \{path\}, not \{job\}/);
    expect(() => validateConfig({ ...base, prow: { ...base.prow, artifactsUrl: 'file:///{path}' } })).toThrow(/"prow.artifactsUrl" must be an http\(s\) URL/);
    expect(() => validateConfig({ ...base, alerts: [{ url: 'https://h', on: ['gate-blocked', 'typo'] }] })).toThrow(/"alerts\[0\].on" must be a non-empty array of "gate-blocked"/);
    expect(() => validateConfig({ ...base, alerts: [{ on: ['gate-blocked'] }] })).toThrow(/"alerts\[0\].url" is required/);
    expect(() => validateConfig({ ...base, alerts: {} })).toThrow(/"alerts" must be an array/);
  });
});
