// Where a run's artifacts are: the browsable folder (prow.artifactsUrl, a template of {bucket} and
// {path}; by default Spyglass on the Prow host), and direct links to its build log, the failing
// steps' logs and the junit files that held its failures. Pure over the stored run.
import type { Config } from '../config';
import { gcsLocationFromUrl } from '../parse/prowMetadata';

export interface ArtifactPlaces {
  /** the folder's page: {bucket} and {path} filled in */
  folder: string;
  /** single files: the same template when one is configured (gcsweb serves files), else the GCS object URL */
  file: string;
}

const trim = (u: string) => u.replace(/\/+$/, '');

/** Spyglass's view of a run folder on the Prow host: <prow>/view/gs/<bucket>/<path>. */
export const SPYGLASS_TEMPLATE = '/view/gs/{bucket}/{path}';
export const PUBLIC_GCS = 'https://storage.googleapis.com';

/** The templates for a configuration; without one, the run's own Prow link names the host. */
export function artifactPlaces(config: Pick<Config, 'prow' | 'gcs'> | undefined, runUrl = ''): ArtifactPlaces {
  if (config?.prow.artifactsUrl) return { folder: config.prow.artifactsUrl, file: config.prow.artifactsUrl };
  let prow = config?.prow.url;
  if (!prow) {
    try {
      prow = new URL(runUrl).origin;
    } catch {
      prow = '';
    }
  }
  const file = `${trim(config?.gcs?.url ?? PUBLIC_GCS)}/{bucket}/{path}`;
  return { folder: prow ? `${trim(prow)}${SPYGLASS_TEMPLATE}` : file, file };
}

/** Each segment percent-encoded where it needs it ("/" kept): names with spaces or "#" stay links. */
const encodePath = (p: string) => (/^[\w.~/-]*$/.test(p) ? p : p.split('/').map(encodeURIComponent).join('/'));

function fill(template: string, bucket: string, path: string): string {
  return template.replaceAll('{bucket}', encodeURIComponent(bucket)).replaceAll('{path}', encodePath(path));
}

/** gs://bucket/path (or a Spyglass URL) → the folder's page, or '' when the location is unknown. */
export function folderUrl(places: ArtifactPlaces, gcsPath: string): string {
  const loc = gcsLocationFromUrl(gcsPath);
  return loc ? fill(places.folder, loc.bucket, `${loc.path}/`) : '';
}

/** A file of the run folder (`file` relative to it) → its direct link, or '' when the location is unknown. */
export function fileUrl(places: ArtifactPlaces, gcsPath: string, file: string): string {
  const loc = gcsLocationFromUrl(gcsPath);
  return loc ? fill(places.file, loc.bucket, `${loc.path}/${file.replace(/^\/+/, '')}`) : '';
}

/**
 * ci-operator's wrapper test of a step, "Run multi-stage test e2e-aws - e2e-aws-openshift-e2e-test
 * container test" → that step's log, artifacts/e2e-aws/openshift-e2e-test/build-log.txt (the pod is
 * named <test>-<step>; its folder is the step's name).
 */
export function stepLogOfWrapperTest(name: string): { step: string; path: string } | undefined {
  const m = /^Run multi-stage test (\S+) - (\S+) container test$/.exec(name);
  if (!m) return undefined;
  const [, test, pod] = m;
  const step = pod.startsWith(`${test}-`) ? pod.slice(test.length + 1) : pod;
  if (!step || step.includes('/') || test.includes('/') || step === '..' || test === '..') return undefined;
  return { step: `${test}/${step}`, path: `artifacts/${test}/${step}/build-log.txt` };
}

/** The step folder a junit file sits in (artifacts/<test>/<step>/...) → that step's log. */
export function stepLogOfJunit(junitPath: string): { step: string; path: string } | undefined {
  const m = /^artifacts\/([^/]+)\/([^/]+)\/.+/.exec(junitPath);
  return m ? { step: `${m[1]}/${m[2]}`, path: `artifacts/${m[1]}/${m[2]}/build-log.txt` } : undefined;
}

/** What ingest records of a run's junit files (run.meta): the files read, and which held each failure. */
export interface JunitSources {
  /** paths relative to the run folder */
  junit?: string[];
  /** test name → index in `junit`, for failed and flaked tests (capped at MAX_FAILED_IN) */
  failedIn?: Record<string, number>;
}

/** The junit file that held a test's failure, where ingest recorded it (runs stored since it does). */
export function junitOf(meta: JunitSources, test: string): string | undefined {
  const i = meta.failedIn && typeof meta.failedIn === 'object' && Object.hasOwn(meta.failedIn, test) ? meta.failedIn[test] : undefined;
  const file = typeof i === 'number' && Array.isArray(meta.junit) ? meta.junit[i] : undefined;
  return typeof file === 'string' ? file : undefined;
}
