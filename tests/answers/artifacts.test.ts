// Where a run's artifacts are: the folder page (Spyglass by default, or a configured template such
// as gcsweb's), and direct links to the build log, the failing step's log and the junit file.
import { describe, expect, it } from 'vitest';
import { artifactPlaces, fileUrl, folderUrl, junitOf, stepLogOfJunit, stepLogOfWrapperTest } from '../../lib/answers/artifacts';
import { validateConfig } from '../../lib/config';
import { junitSources } from '../../lib/ingest/assemble';
import { parseJunit } from '../../lib/parse/junit';
import { TestNames } from '../../lib/parse/testNames';
import { describeFixtures, readFixtureBytes } from '../fixtures';

const GCS_PATH = 'gs://origin-ci-test/logs/periodic-ci-openshift-release-master-nightly-4.2-e2e-aws/2124596985066423079';
const RUN_URL = 'https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/periodic-ci-openshift-release-master-nightly-4.2-e2e-aws/2124596985066423079';

describe('artifact links', () => {
  it('defaults to Spyglass on the Prow host for the folder and to GCS objects for files', () => {
    const places = artifactPlaces(validateConfig({ prow: { url: 'https://prow.ci.openshift.org/' }, gcs: { url: 'https://storage.googleapis.com' } }));
    expect(folderUrl(places, GCS_PATH)).toBe(`${RUN_URL}/`);
    expect(fileUrl(places, GCS_PATH, 'build-log.txt')).toBe(
      'https://storage.googleapis.com/origin-ci-test/logs/periodic-ci-openshift-release-master-nightly-4.2-e2e-aws/2124596985066423079/build-log.txt',
    );
  });

  it('fills a configured gcsweb template for the folder and its files', () => {
    const places = artifactPlaces(validateConfig({ prow: { url: 'https://prow.ci.openshift.org', artifactsUrl: 'https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/{bucket}/{path}' } }));
    expect(folderUrl(places, GCS_PATH)).toBe(`https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/origin-ci-test/logs/periodic-ci-openshift-release-master-nightly-4.2-e2e-aws/2124596985066423079/`);
    expect(fileUrl(places, GCS_PATH, 'artifacts/e2e-aws/openshift-e2e-test/build-log.txt')).toBe(
      'https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/origin-ci-test/logs/periodic-ci-openshift-release-master-nightly-4.2-e2e-aws/2124596985066423079/artifacts/e2e-aws/openshift-e2e-test/build-log.txt',
    );
  });

  it('without a configuration, takes the Prow host from the run\'s own link; an unknown location gives no link', () => {
    const places = artifactPlaces(undefined, RUN_URL);
    expect(folderUrl(places, GCS_PATH)).toBe(`${RUN_URL}/`);
    expect(fileUrl(places, GCS_PATH, 'build-log.txt')).toMatch(/^https:\/\/storage\.googleapis\.com\/origin-ci-test\//);
    expect(folderUrl(places, '')).toBe('');
    expect(fileUrl(places, 'not a location', 'build-log.txt')).toBe('');
  });

  it('escapes a file name that needs it, segment by segment', () => {
    const places = artifactPlaces(validateConfig({ prow: { url: 'https://prow.example' } }));
    expect(fileUrl(places, GCS_PATH, 'artifacts/a b/#1/junit.xml')).toMatch(/\/artifacts\/a%20b\/%231\/junit\.xml$/);
  });

  it('finds a step\'s log from its wrapper test and from the folder of its junit file', () => {
    expect(stepLogOfWrapperTest('Run multi-stage test e2e-aws - e2e-aws-openshift-e2e-test container test')).toEqual({ step: 'e2e-aws/openshift-e2e-test', path: 'artifacts/e2e-aws/openshift-e2e-test/build-log.txt' });
    expect(stepLogOfWrapperTest('Run multi-stage test test phase')).toBeUndefined();
    expect(stepLogOfWrapperTest('Run multi-stage test .. - ../x container test')).toBeUndefined();
    expect(stepLogOfJunit('artifacts/e2e-aws/openshift-e2e-test/artifacts/junit/junit_e2e_20261110-170844.xml')?.path).toBe('artifacts/e2e-aws/openshift-e2e-test/build-log.txt');
    expect(stepLogOfJunit('artifacts/junit_operator.xml')).toBeUndefined();
  });
});

describeFixtures('the failing step of a real ci-operator junit', () => {
  it('names the failing observer step\'s log and records which file held the failure', () => {
    const parsed = parseJunit(readFixtureBytes('junit/ci-operator/multi-observers-junit_operator.xml'));
    const failed = parsed.cases.filter((c) => c.result === 'failed');
    expect(failed.map((c) => stepLogOfWrapperTest(c.name)?.path)).toEqual(['artifacts/multi-observers/failing-observer/build-log.txt']);
    const names = new TestNames();
    const junits = [{ path: 'artifacts/e2e/junit_other.xml', cases: [] }, { path: 'artifacts/junit_operator.xml', cases: parsed.cases }];
    const results = names.mergeCases(...junits.map((j) => j.cases));
    const meta = junitSources(junits, results, names);
    expect(meta.junit).toEqual(['artifacts/e2e/junit_other.xml', 'artifacts/junit_operator.xml']);
    expect(junitOf(meta, failed[0].name)).toBe('artifacts/junit_operator.xml');
    expect(junitOf(meta, 'Run multi-stage test pre phase')).toBeUndefined(); // passed: no failure to point at
  });
});
