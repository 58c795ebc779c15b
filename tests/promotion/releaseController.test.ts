// Release-controller responses (the real one in ../shared/fixtures and malformed ones), tag order,
// and the join from a release-controller job URL to an ingested Prow run by artifact location.
import { describe, expect, it } from 'vitest';
import { compareSemVer, newestFirst, parseReleaseInfo, parseReleaseTags } from '../../lib/parse/releaseController';
import { joinRunByUrl, runLocation, streamView, type StoredReleaseTag } from '../../lib/promotion/streams';
import { tagsNeedingDetails } from '../../lib/ingest/releases';
import { describeFixtures, readFixture } from '../fixtures';

describeFixtures('a real release-controller response (4-stable 4.12.1)', () => {
  const body = JSON.parse(readFixture('release-controller/OCPCRT-74-pr-test.json')) as {
    name: string;
    phase: string;
    results: { blockingJobs: Record<string, { state: string; url: string }>; informingJobs: Record<string, { state: string; url: string }> };
  };

  it('reads name, phase and every blocking and informing job', () => {
    const { value, problems } = parseReleaseInfo(body);
    expect(problems).toEqual([]);
    expect(value.name).toBe(body.name);
    expect(value.phase).toBe(body.phase);
    expect(Object.keys(value.results.blockingJobs).sort()).toEqual(Object.keys(body.results.blockingJobs).sort());
    expect(Object.keys(value.results.informingJobs).sort()).toEqual(Object.keys(body.results.informingJobs).sort());
    for (const [k, j] of Object.entries(body.results.blockingJobs)) expect(value.results.blockingJobs[k]).toMatchObject({ state: j.state, url: j.url });
  });

  it('joins each job URL to the run stored under the same bucket and path, whatever the host', () => {
    const urls = [...Object.values(body.results.blockingJobs), ...Object.values(body.results.informingJobs)].map((j) => j.url);
    // runs as ingest stores them: gs://bucket/path, and a Spyglass URL on another host
    const runs = urls.map((u) => {
      const m = /\/view\/gs\/([^/]+)\/(.+)$/.exec(u)!;
      return { gcsPath: `gs://${m[1]}/${m[2]}`, url: `http://127.0.0.1:8080/view/gs/${m[1]}/${m[2]}`, name: m[2] };
    });
    for (const [i, u] of urls.entries()) expect(joinRunByUrl(u, runs)?.name).toBe(runs[i].name);
    const loc = runLocation(urls[0])!;
    expect(loc.key.startsWith('origin-ci-test/logs/')).toBe(true);
    expect(urls[0].endsWith(`/${loc.job}/${loc.buildId}`)).toBe(true);
  });
});

describe('joining release-controller job URLs to runs', () => {
  const runs = [
    { gcsPath: 'gs://origin-ci-test/logs/periodic-e2e-aws/1001', url: 'https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/periodic-e2e-aws/1001', id: 1 },
    { gcsPath: 'gs://test-platform-results/logs/periodic-e2e-aws/1002', url: '', id: 2 },
    { gcsPath: '', url: 'https://prow.example/view/gs/origin-ci-test/pr-logs/pull/1/pull-e2e/1003', id: 3 },
  ];

  it('matches on bucket and path, not on the host', () => {
    expect(joinRunByUrl('https://other-host.example/view/gs/origin-ci-test/logs/periodic-e2e-aws/1001', runs)?.id).toBe(1);
    expect(joinRunByUrl('https://prow.ci.openshift.org/view/gs/test-platform-results/logs/periodic-e2e-aws/1002/', runs)?.id).toBe(2);
    expect(joinRunByUrl('https://prow.ci.openshift.org/view/gcs/origin-ci-test/pr-logs/pull/1/pull-e2e/1003', runs)?.id).toBe(3);
  });

  it('does not match another bucket, another build, or a URL that is not a run', () => {
    expect(joinRunByUrl('https://prow.ci.openshift.org/view/gs/other-bucket/logs/periodic-e2e-aws/1001', runs)).toBeUndefined();
    expect(joinRunByUrl('https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/periodic-e2e-aws/1009', runs)).toBeUndefined();
    expect(joinRunByUrl('', runs)).toBeUndefined();
    expect(joinRunByUrl('not a url', runs)).toBeUndefined();
    expect(runLocation('https://prow.ci.openshift.org/job-history/gs/origin-ci-test/logs/x')).toBeUndefined();
  });
});

describe('tags and release info from untrusted JSON', () => {
  it('keeps the good tags and reports the bad ones', () => {
    const { value, problems } = parseReleaseTags({ name: 's', tags: [{ name: 'a', phase: 'Accepted' }, { phase: 'Rejected' }, 7, { name: 'a' }, { name: 'b' }] });
    expect(value.tags.map((t) => [t.name, t.phase])).toEqual([
      ['a', 'Accepted'],
      ['b', 'Unknown'],
    ]);
    expect(problems).toHaveLength(2);
    expect(parseReleaseTags('<html>').problems[0]).toMatch(/not a JSON object/);
    expect(parseReleaseTags({ name: 's' }).problems[0]).toMatch(/no "tags" array/);
  });

  it('tolerates missing or malformed results', () => {
    expect(parseReleaseInfo({ name: 'x', phase: 'Ready' }).value.results).toEqual({ blockingJobs: {}, informingJobs: {} });
    const r = parseReleaseInfo({ name: 'x', results: { blockingJobs: { aws: 'nope', gcp: { state: 'Failed', url: 'u' } }, informingJobs: [] } });
    expect(r.value.results.blockingJobs).toEqual({ gcp: { state: 'Failed', url: 'u' } });
    expect(r.problems).toHaveLength(2);
    expect(parseReleaseInfo(null).problems[0]).toMatch(/not a JSON object/);
  });
});

describe('tag order', () => {
  it('sorts by semantic version, newest first, whatever order the API used', () => {
    const names = ['4.12.1', '4.12.10', '4.12.0-rc.3', '4.12.2', '4.12.0'];
    expect(newestFirst(names.map((name) => ({ name }))).map((t) => t.name)).toEqual(['4.12.10', '4.12.2', '4.12.1', '4.12.0', '4.12.0-rc.3']);
    const nightlies = ['4.2.0-0.nightly-2026-11-20-141800', '4.2.0-0.nightly-2026-11-22-153232', '4.2.0-0.nightly-2026-11-21-031937'];
    expect(newestFirst(nightlies.map((name) => ({ name }))).map((t) => t.name)).toEqual([nightlies[1], nightlies[2], nightlies[0]]);
    expect(compareSemVer('4.12.0-rc.10', '4.12.0-rc.9')).toBeGreaterThan(0);
  });

  it('keeps the API order when some names are not versions', () => {
    expect(newestFirst([{ name: 'b' }, { name: '4.1.0' }, { name: 'a' }]).map((t) => t.name)).toEqual(['b', '4.1.0', 'a']);
  });
});

describe('which payloads a stream view shows', () => {
  const tag = (t: string, phase: string, position: number): StoredReleaseTag => ({ tag: t, phase, pullSpec: '', position, results: { blockingJobs: {}, informingJobs: {} }, fetchedAt: 1 });

  it('has the latest, the last accepted, and the rejected ones in between', () => {
    const v = streamView([tag('t5', 'Ready', 0), tag('t4', 'Rejected', 1), tag('t3', 'Failed', 2), tag('t2', 'Accepted', 3), tag('t1', 'Rejected', 4)]);
    expect(v.latest?.tag).toBe('t5');
    expect(v.lastAccepted?.tag).toBe('t2');
    expect(v.rejectedSinceAccepted.map((t) => t.tag)).toEqual(['t4', 't3']);
  });

  it('fetches details down to the last accepted payload, skipping final ones already stored', () => {
    const tags = ['t5', 't4', 't3', 't2', 't1'].map((name, i) => ({ name, phase: ['Pending', 'Rejected', 'Rejected', 'Accepted', 'Accepted'][i], pullSpec: '', downloadURL: '' }));
    const stored = new Map([
      ['t4', { tag: 't4', phase: 'Rejected', results: '{"blockingJobs":{}}' }],
      ['t3', { tag: 't3', phase: 'Ready', results: '{"blockingJobs":{}}' }],
    ]);
    expect(tagsNeedingDetails(tags, stored).map((t) => t.name)).toEqual(['t5', 't3', 't2']);
    expect(tagsNeedingDetails(tags, new Map(), 2).map((t) => t.name)).toEqual(['t5', 't4']);
  });
});
