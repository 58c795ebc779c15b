// Build ids and the GCS job folders as the backfill reads them: real OpenShift CI build ids against
// the start times recorded with them, folder names in listings, pr-logs/directory aliases.
import { describe, expect, it } from 'vitest';
import { buildIdOf, buildIdTime, firstBuildIdAt, parseBuildAlias } from '../../lib/parse/buildFolders';
import { gcsLocationFromUrl } from '../../lib/parse/prowMetadata';
import { describeFixtures, readFixture } from '../fixtures';

describeFixtures('build ids of real OpenShift CI runs', () => {
  const rows = JSON.parse(readFixture('release-controller/bquxjob_65df743f_19de556b6a3.json')) as { prowjob_url: string; prowjob_start: string }[];
  const runs = rows.map((r) => ({ id: gcsLocationFromUrl(r.prowjob_url)!.path.split('/').pop()!, start: Date.parse(`${r.prowjob_start}Z`) / 1000 }));

  it('tell when Prow made them: when the run started or after (a build waiting for capacity, up to 49 minutes here)', () => {
    const delays = runs.map((r) => buildIdTime(r.id)! - r.start).sort((a, b) => a - b);
    expect(delays[0]).toBeGreaterThanOrEqual(0);
    expect(delays[Math.floor(delays.length / 2)]).toBeLessThan(60);
    expect(delays.at(-1)).toBeLessThan(3600);
  });

  it('sort by name as by time, after the first id of any earlier second', () => {
    const byName = [...runs].sort((a, b) => (a.id < b.id ? -1 : 1));
    const byTime = [...runs].sort((a, b) => buildIdTime(a.id)! - buildIdTime(b.id)! || (a.id < b.id ? -1 : 1));
    expect(byName.map((r) => r.id)).toEqual(byTime.map((r) => r.id));
    for (const r of runs) {
      expect(firstBuildIdAt(r.start) <= r.id, r.id).toBe(true);
      expect(firstBuildIdAt(buildIdTime(r.id)! + 1) > r.id, r.id).toBe(true);
      expect(buildIdTime(firstBuildIdAt(r.start))).toBe(r.start);
    }
  });
});

describe('build folders', () => {
  it('are not Prow snowflakes when short, or before 2014', () => {
    expect(buildIdTime('1234')).toBeUndefined();
    expect(buildIdTime('latest-build')).toBeUndefined();
    expect(buildIdTime('100000000000000000')).toBeUndefined(); // 2011
    expect(buildIdTime('99999999999999999999')).toBeUndefined(); // 20 digits
  });

  it('name their build in a listing: folders under logs/<job>/, aliases under pr-logs/directory/<job>/', () => {
    expect(buildIdOf('logs/j/', 'logs/j/2050205768946290688/', '/')).toBe('2050205768946290688');
    expect(buildIdOf('logs/j/', 'logs/j/latest-build.txt', '/')).toBeUndefined();
    expect(buildIdOf('logs/j/', 'logs/j/tmp/', '/')).toBeUndefined();
    expect(buildIdOf('pr-logs/directory/j/', 'pr-logs/directory/j/2050205768946290688.txt', '.txt')).toBe('2050205768946290688');
    expect(buildIdOf('pr-logs/directory/j/', 'pr-logs/directory/j/latest-build.txt', '.txt')).toBeUndefined();
  });

  it('take an alias as the gs:// folder of its build, and say what is wrong with any other', () => {
    const folder = 'gs://test-platform-results/pr-logs/pull/openshift_origin/29000/pull-ci-e2e-aws/2050205768946290688';
    expect(parseBuildAlias(`${folder}\n`, '2050205768946290688')).toEqual({ bucket: 'test-platform-results', path: 'pr-logs/pull/openshift_origin/29000/pull-ci-e2e-aws/2050205768946290688' });
    expect(parseBuildAlias(`${folder}/`, '2050205768946290688').path).toMatch(/2050205768946290688$/);
    expect(() => parseBuildAlias('', '1')).toThrow(/does not hold a gs:\/\/ folder: ""/);
    expect(() => parseBuildAlias('{"error":{"code":500}}', '1')).toThrow(/does not hold a gs:\/\/ folder/);
    expect(() => parseBuildAlias(folder.slice(0, 60), '2050205768946290688')).toThrow(/not a folder of build 2050205768946290688/);
    expect(() => parseBuildAlias(`${folder} ${folder}`, '2050205768946290688')).toThrow(/does not hold one gs:\/\/ folder/);
    expect(() => parseBuildAlias('gs://bucket', '1')).toThrow(/does not hold one gs:\/\/ folder/);
  });
});
