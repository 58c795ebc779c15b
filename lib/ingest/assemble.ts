// One run, end to end but without I/O: which artifact files to read, and how their parsed contents
// combine into the run's record (state, refs, payload, merged test results, parse problems).
import crypto from 'node:crypto';
import { buildLogPromotion, parseBuildLog, type BuildLogResult } from '../parse/buildLog';
import { parseJunit } from '../parse/junit';
import { cleanText, TestNames } from '../parse/testNames';
import { parseFinished, parseStarted, payloadFromProwJob, prowRunFromProwJob, pullNumber, type FinishedJson, type StartedJson } from '../parse/prowMetadata';
import type { FinishedState, ParseProblem, ProwRun, ProwRefs, RawCase, RunRecord, TestResult } from '../parse/types';

export type { FinishedState, RunRecord };
import { INSTALL_STEP_TEST } from '../parse/variants';

export const FINISHED_STATES: ReadonlySet<string> = new Set(['success', 'failure', 'error', 'aborted']);

/**
 * A file of the run: its bytes, or why it could not be downloaded. `overCap`: it is larger than the
 * size cap (a gzip-encoded object is listed at its compressed size): reading it again gives the same.
 */
export type RunFile = { path: string; bytes: Buffer } | { path: string; error: string; overCap?: boolean; missing?: boolean };

export interface ListedObject {
  /** path relative to the run folder */
  path: string;
  size: number;
  version: string;
}

const TOP_LEVEL = new Set(['started.json', 'finished.json', 'prowjob.json', 'build-log.txt']);
export const OPERATOR_JUNIT = /(^|\/)junit_operator\.xml$/;

export function isJunit(path: string): boolean {
  return path.startsWith('artifacts/') && /(^|\/)junit[^/]*\.xml$/i.test(path);
}

/**
 * Which build logs give results: the job's, and (modern layout: openshift-tests output is in the e2e
 * step's log) an e2e step's when no junit says the same. Other step logs are read for search only.
 */
function resultLogs(listing: ListedObject[]): (path: string) => boolean {
  const hasE2eJunit = listing.some((o) => isJunit(o.path) && !OPERATOR_JUNIT.test(o.path));
  return (path) => path === 'build-log.txt' || (!hasE2eJunit && E2E_STEP_LOG.test(path));
}

/** An e2e step's build log: the glob lists them (runFilesGlob). */
const E2E_STEP_LOG = /^artifacts\/[^/]+\/[^/]*e2e[^/]*\/build-log\.txt$/;

/** The files of a run worth downloading, given its listing. */
export function selectFiles(objects: ListedObject[], maxBytes: number): { fetch: ListedObject[]; problems: ParseProblem[] } {
  const fetch: ListedObject[] = [];
  const problems: ParseProblem[] = [];
  const resultLog = resultLogs(objects);
  for (const o of objects) {
    const wanted = TOP_LEVEL.has(o.path) || isJunit(o.path) || resultLog(o.path);
    if (!wanted) continue;
    if (o.size > maxBytes) problems.push({ file: o.path, message: `not read: ${o.size} bytes is over the ${maxBytes}-byte cap` });
    else fetch.push(o);
  }
  return { fetch, problems };
}

/** ci-operator's test case for a multi-stage step's container: "Run multi-stage test e2e-aws - e2e-aws-ipi-install-install container test" */
const STEP_CASE = /^Run multi-stage test (\S+) - (\S+) container test$/;

/**
 * The build logs of the steps that failed, by junit_operator.xml's cases, not fetched already:
 * artifacts/<test>/<step>/build-log.txt (search reads them). The glob lists e2e steps' logs only
 * (listing every step's made the run listings 2.5 times longer): an e2e step's is taken when
 * listed, another's is fetched, a missing one being no problem.
 */
export function failedStepLogs(operator: RawCase[], listing: ListedObject[], fetched: ReadonlySet<string>): string[] {
  const listed = new Set(listing.map((o) => o.path));
  const out = new Set<string>();
  for (const c of operator) {
    const m = c.result === 'failed' ? STEP_CASE.exec(c.name) : null;
    if (!m) continue;
    const [, test, pod] = m;
    const step = pod.startsWith(`${test}-`) ? pod.slice(test.length + 1) : pod;
    const path = `artifacts/${test}/${step}/build-log.txt`;
    if (!fetched.has(path) && (!E2E_STEP_LOG.test(path) || listed.has(path))) out.add(path);
  }
  return [...out];
}

/** "junit*.xml" in any case, as isJunit takes it */
const JUNIT_GLOB = '[jJ][uU][nN][iI][tT]*.[xX][mM][lL]';

/**
 * A GCS glob (lib/sources/gcs.ts list) of the objects selectFiles may take under the run folder
 * `prefix` (ending in /): the server then leaves out the thousands of gathered artifacts. It may match
 * more than selectFiles takes, never less. Undefined when the prefix has characters special to globs
 * (the folder is then listed in full).
 */
export function runFilesGlob(prefix: string): string | undefined {
  if (/[*?[\]{}\\,]/.test(prefix)) return undefined;
  // `artifacts/**/` is given with and without a folder level: servers differ on whether `**/` matches none
  const wanted = [...TOP_LEVEL, `artifacts/${JUNIT_GLOB}`, `artifacts/**/${JUNIT_GLOB}`, 'artifacts/*/*e2e*/build-log.txt'];
  return `${prefix}{${wanted.join(',')}}`;
}

export function fingerprint(objects: ListedObject[], state: string): string {
  let text = state;
  for (const o of [...objects].sort((a, b) => (a.path < b.path ? -1 : 1))) text += `\n${o.path}\t${o.version}\t${o.size}`;
  // one-shot: a Hash object per run cost more than the hashing
  return crypto.hash('sha1', text, 'hex');
}

/** Whether a junit gave a failure without text (the build log's is then read for it): a loop, not a closure per case. */
function failureWithoutText(junits: { cases: RawCase[] }[]): boolean {
  for (const j of junits) for (let i = 0; i < j.cases.length; i++) if (j.cases[i].result === 'failed' && !j.cases[i].message) return true;
  return false;
}

function jsonOf<T>(file: RunFile | undefined, parse: (text: string) => T, problems: ParseProblem[]): T | undefined {
  if (!file || !('bytes' in file)) return undefined;
  try {
    return parse(file.bytes.toString('utf8'));
  } catch (e) {
    problems.push({ file: file.path, message: (e as Error).message });
    return undefined;
  }
}

function stateFromFinished(result: string | undefined, passed: boolean | undefined): FinishedState | undefined {
  const r = (result ?? '').toUpperCase();
  if (r === 'SUCCESS') return 'success';
  if (r === 'FAILURE') return 'failure';
  if (r === 'ABORTED') return 'aborted';
  if (r) return 'error';
  if (passed === true) return 'success';
  if (passed === false) return 'failure';
  return undefined;
}

/** Whether an e2e junit (not junit_operator.xml) was read and none is broken: it then gives every result. */
function soundE2eJunit(junits: { path: string; error?: string }[]): boolean {
  const e2e = junits.filter((j) => !OPERATOR_JUNIT.test(j.path));
  return e2e.length > 0 && !e2e.some((j) => j.error);
}

/**
 * Combines test results from junit files and build logs (see README "How a run's results are read").
 * Results name their tests by the strings `names` keeps.
 */
export function combineResults(
  junits: { path: string; cases: RawCase[]; error?: string }[],
  logs: BuildLogResult[],
  names = new TestNames(),
): { results: TestResult[]; source: string } {
  const e2e = junits.filter((j) => !OPERATOR_JUNIT.test(j.path));
  const junitResults = names.mergeCases(...junits.map((j) => j.cases));
  const failTexts = new Map<string, string>();
  for (const l of logs) for (const [name, text] of Object.entries(l.failTexts)) failTexts.set(names.kept(name), text);
  // in place (the results are this call's own): a copy per result gave them two object shapes
  const withLogText = (results: TestResult[]): TestResult[] => {
    if (failTexts.size) {
      for (const r of results) {
        if ((r.outcome === 'failed' || r.outcome === 'flaked') && !r.message) r.message = failTexts.get(r.name) ?? '';
      }
    }
    return results;
  };
  if (soundE2eJunit(junits)) {
    // the common case: logs only fill in failure text
    return { results: withLogText(junitResults), source: 'junit' };
  }
  const byName = new Map(junitResults.map((r) => [r.name, r]));
  const brokenNames = new Set(e2e.filter((j) => j.error).flatMap((j) => j.cases.map((c) => names.kept(c.name))));
  const logCases = logs.map((l) => l.cases);
  let source = e2e.length ? 'junit' : 'none';
  if (logCases.some((c) => c.length) && (e2e.length === 0 || e2e.some((j) => j.error))) {
    // No e2e junit, or a broken one: the log's per-test lines fill in (and win for the broken file's tests).
    for (const r of names.mergeCases(...logCases)) if (!byName.has(r.name) || brokenNames.has(r.name)) byName.set(r.name, r);
    source = e2e.length ? 'junit+build-log' : 'build-log';
  } else if (e2e.length === 0) {
    // Older logs without per-test lines: only the Failing/Flaky blocks are known.
    for (const l of logs) {
      for (const name of l.flaky.map((n) => names.kept(n))) if (!byName.has(name)) byName.set(name, { name, outcome: 'flaked', message: '' });
      for (const name of l.failing.map((n) => names.kept(n))) if (!byName.has(name)) byName.set(name, { name, outcome: 'failed', message: '' });
      if (l.failing.length || l.flaky.length) source = 'build-log-summary';
    }
  }
  return { results: withLogText([...byName.values()]), source };
}

/**
 * The install step tests that failed, or undefined for none. Not an empty array: arrays empty and not
 * are different object shapes to V8, and assembleRun was compiled again when the first install failure came.
 */
function failedInstallSteps(results: TestResult[]): string[] | undefined {
  let steps: string[] | undefined;
  for (const r of results) if (r.outcome === 'failed' && INSTALL_STEP_TEST.test(r.name)) (steps ??= []).push(r.name);
  return steps;
}

/** failedIn holds at most this many tests: a mass failure would otherwise make meta megabytes. */
export const MAX_FAILED_IN = 500;

/**
 * Which junit file held each failure (the run page links to it): the files read, and the file of each
 * failed or flaked test's first failure (none for a failure known from a build log only).
 */
export function junitSources(
  junits: { path: string; cases: RawCase[] }[],
  results: TestResult[],
  names: TestNames,
): { junit: string[] | undefined; failedIn: Record<string, number> | undefined } {
  if (!junits.length) return { junit: undefined, failedIn: undefined };
  const junit = junits.map((j) => j.path);
  const failing = new Set<string>();
  for (const r of results) if (r.outcome === 'failed' || r.outcome === 'flaked') failing.add(r.name);
  const failedIn: Record<string, number> = {};
  let n = 0;
  for (let f = 0; f < junits.length && n < MAX_FAILED_IN; f++) {
    for (const c of junits[f].cases) {
      if (c.result !== 'failed') continue;
      const name = names.kept(c.name);
      if (!failing.has(name) || Object.hasOwn(failedIn, name)) continue;
      failedIn[name] = f;
      if (++n >= MAX_FAILED_IN) break;
    }
  }
  return { junit, failedIn: n ? failedIn : undefined };
}

/**
 * What Deck's record of a build found in its GCS folder would say (see ProwRun.fromGcs): the ProwJob
 * of prowjob.json, as Deck lists it; else started.json and finished.json. Its identity stays the
 * folder's; without a finished.json or a finished ProwJob it stays pending.
 */
export function deckViewOfFolder(found: ProwRun, prowJob: ProwRun | undefined, started: StartedJson | undefined, finished: FinishedJson | undefined): ProwRun {
  const finishedState = prowJob && FINISHED_STATES.has(prowJob.state) ? prowJob.state : stateFromFinished(finished?.result, finished?.passed);
  const run: ProwRun = {
    job: found.job,
    buildId: found.buildId,
    type: prowJob?.type || found.type,
    state: finishedState ?? 'pending',
    started: prowJob?.started || started?.timestamp || found.started,
    url: prowJob?.url || found.url,
    fromGcs: true,
  };
  const end = prowJob?.finished ?? finished?.timestamp;
  if (finishedState && end !== undefined) run.finished = end;
  if (prowJob?.refs) run.refs = prowJob.refs;
  if (prowJob?.prowJobId) run.prowJobId = prowJob.prowJobId;
  return run;
}

/**
 * Builds a run's record from Deck's view of it and its downloaded files. Never throws on bad files.
 * `names`: the test names of the pass (see TestNames), else the run's own.
 */
export function assembleRun(
  listed: ProwRun,
  gcsPath: string,
  files: RunFile[],
  listing: ListedObject[],
  preProblems: ParseProblem[] = [],
  names = new TestNames(),
): RunRecord {
  const problems: ParseProblem[] = [...preProblems];
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const f of files) if ('error' in f) problems.push({ file: f.path, message: `download failed: ${f.error}` });

  const started = jsonOf(byPath.get('started.json'), parseStarted, problems);
  const finished = jsonOf(byPath.get('finished.json'), parseFinished, problems);
  const prowJobRaw = jsonOf(byPath.get('prowjob.json'), (t) => JSON.parse(t) as unknown, problems);
  const prowJob = prowJobRaw === undefined ? undefined : prowRunFromProwJob(prowJobRaw);
  const run = listed.fromGcs ? deckViewOfFolder(listed, prowJob, started, finished) : listed;
  if (listed.fromGcs && !listing.some((o) => o.path === 'started.json')) problems.push({ file: 'started.json', message: 'not in the build folder: the start is taken from prowjob.json or the build id' });

  const junits: { path: string; cases: RawCase[]; error?: string }[] = [];
  for (const f of files) {
    if (!('bytes' in f) || !isJunit(f.path)) continue;
    const parsed = parseJunit(f.bytes);
    if (parsed.error) problems.push({ file: f.path, message: parsed.error });
    junits.push({ path: f.path, cases: parsed.cases, error: parsed.error });
  }
  // What of the logs is needed (see combineResults): where no sound e2e junit lists the results, every
  // line; else only the text of failures the junit gave none, and otherwise just the promotion line.
  const sound = soundE2eJunit(junits);
  const needLines = !sound || failureWithoutText(junits);
  const logs: BuildLogResult[] = [];
  const resultLog = resultLogs(listing);
  for (const f of files) {
    if (!('bytes' in f) || !resultLog(f.path)) continue;
    try {
      logs.push(needLines ? parseBuildLog(f.bytes.toString('utf8'), { passes: !sound }) : { cases: [], failing: [], flaky: [], failTexts: {}, promote: buildLogPromotion(f.bytes) });
    } catch (e) {
      problems.push({ file: f.path, message: (e as Error).message });
    }
  }
  const { results, source } = combineResults(junits, logs, names);
  // names are clean already (TestNames)
  for (const r of results) if (r.message) r.message = cleanText(r.message);

  const refs: ProwRefs | undefined = run.refs ?? prowJob?.refs;
  const pull = refs?.pulls[0]?.number ?? pullNumber(started?.pull) ?? null;
  const commitSha = refs?.pulls[0]?.sha ?? refs?.baseSha ?? started?.repoCommit ?? finished?.revision ?? '';
  const state: FinishedState =
    (FINISHED_STATES.has(run.state) ? (run.state as FinishedState) : undefined) ??
    stateFromFinished(finished?.result, finished?.passed) ??
    'error';
  const installSteps = failedInstallSteps(results);
  // a `level=fatal` line where e2e tests ran is not the install's (a teardown step's, say)
  const logInstall = sound ? undefined : logs.find((l) => l.installFailed)?.installFailed;
  const promote = logs.find((l) => l.promote)?.promote;

  const installFailure = installSteps ? { steps: installSteps } : logInstall ? { steps: [logInstall.step], message: logInstall.message } : undefined;
  const incomplete = files.some((f) => 'error' in f && !f.overCap);
  // One object shape for every run (V8 recompiled this function for each new one); what is left
  // undefined is not stored (JSON drops it). storeBatch sets readAttempts.
  const { junit, failedIn } = junitSources(junits, results, names);
  const meta: Record<string, unknown> = { resultsFrom: source, refs, installFailure, promote, incomplete: incomplete || undefined, readAttempts: undefined, junit, failedIn };

  return {
    job: run.job,
    buildId: run.buildId,
    type: run.type || prowJob?.type || '',
    state,
    started: run.started || started?.timestamp || prowJob?.started || 0,
    finished: run.finished ?? finished?.timestamp ?? prowJob?.finished ?? null,
    url: run.url,
    gcsPath,
    pull,
    baseRef: refs?.baseRef ?? '',
    commitSha,
    payload: (prowJobRaw !== undefined ? payloadFromProwJob(prowJobRaw) : undefined) ?? '',
    results,
    installFailed: !!installSteps || !!logInstall,
    problems,
    meta,
    incomplete,
    fingerprint: fingerprint(listing, state),
  };
}
