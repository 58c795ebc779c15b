// GCS matchGlob: the replay server's reading of it, the glob ingest lists a run folder with, and
// that listing with it loses nothing ingest takes, on hand-made folders and on the whole sample world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FILE_BYTES, httpClientFor, listRunFolder } from '../../lib/ingest/run';
import { runFilesGlob, selectFiles, type ListedObject } from '../../lib/ingest/assemble';
import { gcsLocationFromUrl } from '../../lib/parse/prowMetadata';
import { globToRegExp } from '../../lib/sources/gcsGlob';
import { fetchDeckRuns } from '../../lib/sources/deck';
import { GcsClient } from '../../lib/sources/gcs';
import { configFor, replay, sampleWorld } from '../helpers/world';

describe('globToRegExp (GCS matchGlob syntax)', () => {
  const cases: [string, string, boolean][] = [
    ['a/*.txt', 'a/b.txt', true],
    ['a/*.txt', 'a/b/c.txt', false],
    ['a/**.txt', 'a/b/c.txt', true],
    ['a/**/c.txt', 'a/c.txt', true],
    ['a/**/c.txt', 'a/b/d/c.txt', true],
    ['a/?.txt', 'a/b.txt', true],
    ['a/?.txt', 'a//.txt', false],
    ['a/[bc].txt', 'a/c.txt', true],
    ['a/[!bc].txt', 'a/c.txt', false],
    ['a/[!bc].txt', 'a/d.txt', true],
    ['a/[a-c]x', 'a/bx', true],
    ['a/{b,c*}.txt', 'a/cat.txt', true],
    ['a/{b,c*}.txt', 'a/d.txt', false],
    ['a/\\*.txt', 'a/*.txt', true],
    ['a/\\*.txt', 'a/b.txt', false],
    ['a.(b)+', 'a.(b)+', true],
    ['a.(b)+', 'aX(b)+', false],
  ];
  it.each(cases)('%s on %s: %s', (glob, name, expected) => {
    expect(globToRegExp(glob)!.test(name)).toBe(expected);
  });
  it.each(['a/[bc', 'a/{b,c', 'a/{b,{c,d}}', 'a\\'])('%s is refused', (glob) => {
    expect(globToRegExp(glob)).toBeUndefined();
  });
});

describe('runFilesGlob', () => {
  const prefix = 'logs/periodic-e2e-aws/1234/';
  const folder = [
    'started.json', 'finished.json', 'prowjob.json', 'build-log.txt', 'podinfo.json', 'clone-log.txt',
    'artifacts/junit_operator.xml', 'artifacts/JUNIT_RUNNER.XML', 'artifacts/ci-op/junit.xml',
    'artifacts/e2e-aws/openshift-e2e-test/artifacts/junit/junit_e2e_20261123-002620.xml',
    'artifacts/e2e-aws/openshift-e2e-test/artifacts/junit/e2e-events_20261123.json',
    'artifacts/e2e-aws/openshift-e2e-test/build-log.txt', 'artifacts/e2e-aws/openshift-e2e-test/finished.json',
    'artifacts/e2e-aws/gather-extra/build-log.txt', 'artifacts/e2e-aws/gather-extra/artifacts/pods/openshift-etcd_etcd-0.log',
    'artifacts/e2e-aws/gather-extra/artifacts/junit-like.txt', 'artifacts/notjunit.xml',
  ].map((path, i): ListedObject => ({ path, size: 100 + i, version: `v${i}` }));

  it('matches everything selectFiles takes from a folder, junit in any case and at any depth, and little else', () => {
    const glob = globToRegExp(runFilesGlob(prefix)!)!;
    const matched = folder.filter((o) => glob.test(prefix + o.path));
    expect(selectFiles(matched, DEFAULT_MAX_FILE_BYTES)).toEqual(selectFiles(folder, DEFAULT_MAX_FILE_BYTES));
    // with no e2e junit, the e2e step's log is taken: it is matched as well
    const noJunit = folder.filter((o) => !o.path.includes('junit_e2e'));
    expect(selectFiles(noJunit.filter((o) => glob.test(prefix + o.path)), DEFAULT_MAX_FILE_BYTES)).toEqual(selectFiles(noJunit, DEFAULT_MAX_FILE_BYTES));
    expect(matched.map((o) => o.path)).toEqual([
      'started.json', 'finished.json', 'prowjob.json', 'build-log.txt',
      'artifacts/junit_operator.xml', 'artifacts/JUNIT_RUNNER.XML', 'artifacts/ci-op/junit.xml',
      'artifacts/e2e-aws/openshift-e2e-test/artifacts/junit/junit_e2e_20261123-002620.xml',
      'artifacts/e2e-aws/openshift-e2e-test/build-log.txt',
    ]);
  });

  it('is not used for a folder whose name has glob characters', () => {
    for (const odd of ['logs/job[1]/5/', 'logs/a*b/5/', 'logs/{x}/5/', 'logs/a,b/5/', 'logs/a\\b/5/']) expect(runFilesGlob(odd)).toBeUndefined();
  });
});

describe('listing run folders of the sample world with the glob', () => {
  let server: Awaited<ReturnType<typeof replay>>;
  let dir = '';
  beforeAll(async () => {
    dir = (await sampleWorld()).dir;
    server = await replay(dir, { gcsPageSize: 7 }); // small pages: the glob must hold across page tokens
  });
  afterAll(() => server.close());

  it('gives every run the files a full listing gives it, and leaves the gathered artifacts out', async () => {
    const config = configFor(dir, server.url);
    const http = httpClientFor(config);
    const gcs = new GcsClient(http, config.gcs!.url);
    const { runs } = await fetchDeckRuns(http, config.prow.url);
    let compared = 0;
    let listedFull = 0;
    let listedGlobbed = 0;
    for (const run of runs) {
      const loc = gcsLocationFromUrl(run.url);
      if (!loc) continue;
      const prefix = `${loc.path}/`;
      const full = (await gcs.list(loc.bucket, prefix)).map((o) => ({ path: o.name.slice(prefix.length), size: o.size, version: o.version }));
      const globbed = await listRunFolder(gcs, loc.bucket, prefix);
      expect(selectFiles(globbed, DEFAULT_MAX_FILE_BYTES), prefix).toEqual(selectFiles(full, DEFAULT_MAX_FILE_BYTES));
      compared++;
      listedFull += full.length;
      listedGlobbed += globbed.length;
    }
    http.close();
    expect(compared).toBeGreaterThan(800);
    expect(gcs.globDisabled).toBeUndefined(); // the replay server's glob listings were trusted
    // the gathered artifacts (lib/world/gathered.ts) stay out of glob listings
    expect(listedGlobbed * 10).toBeLessThan(listedFull);
  });
});
