// The OpenAPI 3.1 description of buildcop's JSON API, served at /api/openapi.json. Every GET route
// returns what its CLI twin prints with --json (same lib function, same query parameters).
// The bug routes (issue 5) and the promotion route (issue 6) are described here too, from their
// issues' contracts; their handlers live with that work.

import { CLASSIFICATIONS } from '../verdicts/verdict';
import type { AnswerName } from '../server/answers';

type Schema = Record<string, unknown>;

const str = (description?: string): Schema => (description ? { type: 'string', description } : { type: 'string' });
const int = (description?: string): Schema => (description ? { type: 'integer', description } : { type: 'integer' });
const num = (description?: string): Schema => (description ? { type: 'number', description } : { type: 'number' });
const bool = (description?: string): Schema => (description ? { type: 'boolean', description } : { type: 'boolean' });
const iso = (description = 'ISO 8601 time, UTC'): Schema => ({ type: 'string', format: 'date-time', description });
const nullable = (s: Schema): Schema => ({ oneOf: [s, { type: 'null' }] });
const arr = (items: Schema): Schema => ({ type: 'array', items });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({ type: 'object', properties, required });

const q = (name: string, description: string, schema: Schema = str(), required = false) => ({ name, in: 'query', required, description, schema });
const path = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: str() });

const WINDOW = q('window', 'Time window ending at `at`.', { type: 'string', enum: ['24h', '3d', '7d', '14d', '30d', '90d'], default: '7d' });
const AT = q('at', 'End of the window (ISO time, or YYYY-MM-DD); default now. A link with `at` shows the same numbers forever.', { type: 'string', format: 'date-time' });
const JOB = q('job', 'Regular expression over job names (RE2 syntax).');
const BUDGET = q('budget', 'Milliseconds the answer may take, less than its default (search 15000, others 20000; 60000 at most); past it the answer stops and says so in `partial`.', { type: 'integer', minimum: 0 });

const ok = (schema: Schema, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
// every route may answer 503 when the database cannot be reached (lib/server/api.ts)
const errors = (codes: number[]) =>
  Object.fromEntries(
    [...codes, 503].map((c) => [
      String(c),
      ok(ref('Error'), {
        400: 'Invalid query parameter (the message says which and why)',
        401: 'Missing or wrong bearer token',
        404: 'Unknown id',
        408: 'The body did not arrive in time',
        413: 'The body is too large',
        429: 'Too many sign-in attempts from this client (a token sent is one): try again after Retry-After seconds',
        503: 'Database unavailable, the server busy, or the answer stopped past twice its budget; (sign-in) too many bodies being sent at once: try again (Retry-After says when)',
      }[c] ?? 'Error'),
    ]),
  );

const get = (summary: string, cli: string, parameters: unknown[], schema: Schema, codes = [400]) => ({
  get: { summary, description: `Same JSON as \`${cli} --json\`.`, parameters, responses: { 200: ok(schema), ...errors(codes) } },
});

const bugRef = obj(
  { tracker: { type: 'string', enum: ['bugzilla', 'jira', 'github'] }, id: str(), url: str(), status: str(), summary: str(), reason: str('name-in-summary, name-in-comment, name-in-description, signature or manual'), recurred: bool('closed or verified, but the test failed after that'), closedAt: iso() },
  ['tracker', 'id', 'url', 'status', 'summary', 'reason'],
);
const classification = { type: 'string', enum: [...CLASSIFICATIONS], description: 'judged on the 14 days before `at`, whatever the window' };
const evidence = { type: 'object', properties: { summary: str('one readable sentence') }, required: ['summary'], additionalProperties: true, description: 'The numbers behind the verdict; fields depend on the classification.' };
const signature = obj({ id: str('stable id'), text: str('normalised failure text'), count: int('occurrences in the window') });
const sparkPoint = obj({ start: iso(), runs: int(), failed: int(), flaked: int() });

const hotlistItem = obj({
  test: str('full test name'), id: str('16 hex digits derived from the name'), failedRuns: int(), flakedRuns: int(), runs: int(), failureRate: num(),
  jobs: arr(str()), firstFailure: nullable(iso()), lastFailure: nullable(iso()), previousFailedRuns: int(), previousFlakedRuns: int(), previousRuns: int(),
  isNew: bool('no failure or flake in the window before'), classification, evidence, signatures: arr(signature), signaturesCount: int(), bugs: arr(ref('BugRef')),
  causes: arr(obj({ id: str('signature id'), runs: int() })),
  owner: str(), sparkline: arr(sparkPoint),
});

const testDetail = obj({
  test: str(), id: str(), window: str(), from: iso(), to: iso(), owner: str(),
  classification: { type: 'string', enum: [...classification.enum, 'passing'] }, evidence,
  failedRuns: int(), flakedRuns: int(), runsCount: int(), failureRate: num(), previousFailedRuns: int(), previousFlakedRuns: int(), previousRuns: int(), isNew: bool(),
  history: arr(obj({ day: str('YYYY-MM-DD'), job: str(), runs: int(), failed: int(), flaked: int() })),
  sparkline: arr(sparkPoint),
  signatures: arr(obj({ id: str(), text: str(), count: int(), total: int(), tests: int('tests sharing the signature'), firstSeen: iso(), lastSeen: iso(), exampleRuns: arr(str('Prow URL')) })),
  runs: arr(obj({ job: str(), buildId: str(), url: str('Prow job page'), artifacts: str('gs:// path'), started: iso(), outcome: { type: 'string', enum: ['failed', 'flaked'] }, signature: nullable(str()), message: str() })),
  runsTotal: int('failed and flaked runs in the window, of which runs lists a page'),
  runsNext: nullable(iso('before of the next page of runs')),
  bugs: arr(ref('BugRef')),
});

const jobSummary = obj(
  {
    name: str(), release: str(), platform: str(), upgrade: bool(), kind: str(), runs: int(), byState: { type: 'object', additionalProperties: int() }, passRate: nullable(num()),
    lastRun: nullable(obj({ buildId: str(), state: str(), started: iso(), url: str() })),
  },
  ['name', 'upgrade', 'kind', 'runs', 'byState', 'passRate', 'lastRun'],
);

const jobDetail = obj({
  name: str(), type: str(), window: str(), from: iso(), to: iso(), runsCount: int(), passRate: nullable(num()),
  daily: arr(obj({ day: str(), runs: int(), success: int(), failure: int(), error: int(), aborted: int(), passRate: nullable(num()) })),
  runs: arr(obj({
    buildId: str(), state: str(), started: iso(), finished: nullable(iso()), durationSeconds: nullable(int()), url: str(), pull: nullable(int()), commit: str('the commit under test: a presubmit\'s pull head'), payload: str(),
    passed: int(), failed: int('failed tests, ci-operator wrapper tests (ignoreTests) left out'), flaked: int(), skipped: int(), installFailed: bool(), parseErrors: int(),
    wrapperFailed: int('wrapper tests that failed (not counted in failed)'), wrapperFlaked: int(),
  })),
  pending: arr(obj({ buildId: str(), state: str(), started: iso(), url: str(), lastError: str('why the last try could not take it'), listed: bool('Deck listed it in the latest ingest pass'), lastListed: iso() })),
  topTests: arr(obj({ test: str(), id: str(), failedRuns: int(), flakedRuns: int(), runs: int(), classification })),
  grid: obj({
    columns: arr(obj({ buildId: str(), started: iso(), state: str(), url: str() })),
    rows: arr(obj({
      test: str(), id: str(), failed: int(), flaked: int(),
      cells: arr(obj({ outcome: { type: 'string', enum: ['failed', 'flaked', 'passed', 'none'], description: 'none: the run did not execute the test' }, message: str('the start of the failure text') }, ['outcome'])),
    })),
    totalRows: int('tests that failed or flaked in the columns (rows holds at most 200)'),
  }),
});

const runTestFields = {
  test: str(), id: str(), message: str(), signature: nullable(obj({ id: str(), text: str() })),
  junit: nullable(str('the junit file that held the failure, relative to the run folder')), junitUrl: nullable(str()),
};
const runTest = obj(runTestFields);
const runDetail = obj({
  job: str(), buildId: str(), state: str(), started: iso(), finished: nullable(iso()), durationSeconds: nullable(int()), url: str(), artifacts: str(), artifactsUrl: str(),
  links: obj({
    buildLog: nullable(str('build-log.txt')), stepLogs: arr(obj({ step: str('<test>/<step>'), file: str(), url: str() })), junit: arr(obj({ file: str(), url: str() })),
  }),
  refs: obj({ pull: nullable(int()), baseRef: str(), commit: str('a presubmit\'s pull head'), pullUrl: nullable(str()), detail: { type: 'object' } }, ['pull', 'baseRef', 'commit']),
  payload: nullable(str()),
  counts: obj({
    passed: int(), failed: int('ci-operator wrapper tests (ignoreTests) left out'), flaked: int(), skipped: int(),
    wrapperFailed: int(), wrapperFlaked: int(), wrapperPassed: int(),
  }),
  installFailure: nullable({ type: 'object', properties: { steps: arr(str()) } }), promote: nullable({ type: 'object' }), resultsFrom: nullable(str()), incomplete: bool(),
  failedTests: arr(runTest), flakedTests: arr(runTest),
  wrapperTests: arr(obj({ ...runTestFields, outcome: { type: 'string', enum: ['failed', 'flaked'] }, stepLog: nullable(str('the failing step\'s log, relative to the run folder')) })),
  parseErrors: arr(obj({ file: str(), message: str() })), ingestedAt: iso(),
});

const partial = obj(
  {
    reason: { type: 'string', enum: ['time budget', 'client went away'] }, afterMs: int('milliseconds spent before stopping'),
    covered: str('what the answer covers, e.g. the candidate runs read (newest first)'),
  },
  ['reason', 'afterMs'],
);
const marks = arr(arr(int()));
const matchedLine = obj({ line: int('1-based, in the text searched'), text: str(), marks: { ...marks, description: 'matches in text, [start, end)' }, before: arr(str()), after: arr(str()) });
const searchResult = obj(
  {
    q: str(), window: str(), from: iso(), to: iso(), in: arr({ type: 'string', enum: ['logs', 'failures', 'bugs'] }), context: int('context lines'),
    truncated: bool('stopped before searching everything: see partial'), matchingRuns: int('runs with a match in their build logs or failures'), totalRuns: int(),
    tests: int('tests with a matching failure'),
    results: arr(obj({
      test: str(), id: str(), testMarks: marks, matches: int(),
      runs: arr(obj({ job: str(), buildId: str(), url: str(), started: iso(), outcome: str(), excerpt: str(), excerptMarks: marks, lines: arr(matchedLine) })),
    })),
    logJobs: int('jobs with a matching build log'),
    jobs: arr(obj({
      job: str(), matchingRuns: int(), matches: int(),
      runs: arr(obj({
        buildId: str(), url: str(), started: iso(), state: str(),
        files: arr(obj({ path: str('build-log.txt, or a failed step\'s artifacts/<test>/<step>/build-log.txt'), size: int('bytes of the file'), tailStart: int('where the searched tail (its last 20 MiB) starts'), matches: int(), lines: arr(matchedLine) })),
      })),
    })),
    matchingBugs: int(),
    bugs: arr(obj({ tracker: str(), id: str(), url: str(), summary: str(), status: str(), matches: int(), lines: arr(matchedLine) })),
    candidates: { type: 'object', additionalProperties: int(), description: 'per kind searched, the documents the trigram index gave (RE2 read each)' },
    perDay: arr(obj({ day: str(), runs: int(), matchingRuns: int('runs with a match in any of the kinds searched'), logRuns: int(), failureRuns: int() })),
    partial: ref('Partial'),
  },
  ['q', 'window', 'from', 'to', 'in', 'context', 'truncated', 'matchingRuns', 'totalRuns', 'tests', 'results', 'logJobs', 'jobs', 'matchingBugs', 'bugs', 'candidates', 'perDay'],
);

const stats = obj({
  runs: int(), runsByState: { type: 'object', additionalProperties: int() }, pendingRuns: int(), jobs: int(), tests: int(), testResults: int(), failures: int(), flakes: int(),
  signatures: int(), parseErrors: int(), lastIngestAt: nullable(iso()), lastIngestStatus: nullable(str()), lastIngestWarnings: int('sources that failed without failing the latest pass: see /api/ingest'),
  lastIngestRunsNotStored: int('runs the database refused to store in the latest pass, which then failed: see /api/ingest'),
});

const health = obj({
  status: { type: 'string', enum: ['ok', 'degraded', 'stale', 'never-ingested', 'unavailable'], description: 'degraded: the latest pass could not store every run it read (whatever the age of the data)' },
  lastIngestAt: nullable(iso()), lastIngestStatus: nullable(str()), lastIngestWarnings: int('problems the latest pass reported reading its sources: see /api/ingest'),
  lastIngestRunsNotStored: int('runs the database refused to store in the latest pass (a full disk, say), which then failed'),
  ageSeconds: nullable(int('since the last successful ingest')), staleAfterSeconds: int(),
  database: obj({ reachable: bool(), dialect: str(), error: str() }, ['reachable']),
  counts: nullable(obj({ runs: int(), pendingRuns: int(), jobs: int(), tests: int(), signatures: int() })),
});

const ingestLog = obj({
  passes: arr(obj({
    id: int(), startedAt: iso(), finishedAt: nullable(iso()),
    status: { type: 'string', enum: ['running', 'ok', 'failed', 'interrupted'], description: 'interrupted: recorded as running, and a later pass started since (its process was killed)' },
    message: str('why the pass failed'), seconds: num(), runsNew: int(), runsUpdated: int(), runsPending: int(), runsLost: int('pending runs Deck stopped listing unfinished'),
    runsFailed: int('runs that could not be fetched or stored (tried again later)'), runsNotStored: int('of those, runs the database refused: the pass failed'), runsBackfilled: int('of runsNew, those found in the GCS job folders (ingest --since)'),
    runsPruned: int('runs deleted for being older than the retention'), testResults: int(), parseErrors: int(), downloadedBytes: int(),
    warnings: arr(str('a source that failed without failing the pass')),
  })),
  pending: obj({
    total: int(), running: int('Deck lists them unfinished'), retrying: int('finished, not fetched or stored yet'), lost: int('Deck stopped listing them unfinished'),
    runs: arr(obj({
      job: str(), buildId: str(), state: str(), started: iso(), url: str(), why: { type: 'string', enum: ['running', 'retrying', 'lost'] }, attempts: int(), lastError: str(),
      firstSeen: iso(), lastListed: nullable(iso()), nextCheck: nullable(iso('not tried again before')),
    })),
  }),
  parseErrors: obj({ total: int(), runs: int('runs with parse errors'), errors: arr(obj({ job: str(), buildId: str(), started: iso(), url: str(), file: str(), message: str() })) }),
});

const bugs = obj({
  bugs: arr(obj({ tracker: str(), id: str(), url: str(), summary: str(), status: str(), tests: arr(str('linked test names')), links: arr(obj({ test: str(), reason: str() })) })),
});

const promotion = obj({
  gates: arr(obj({
    name: str(), blocked: bool(),
    jobs: arr(obj({
      job: str(), kind: { type: 'string', enum: ['blocking', 'informing'] }, latest: nullable(obj({ buildId: str(), state: str(), url: str(), finished: nullable(iso()) })),
      consecutiveFailures: int(), lastSuccess: nullable(iso()),
      pending: arr(obj({ buildId: str(), url: str(), started: iso(), listed: bool('false: Deck stopped listing it before it finished'), lastListed: iso() }, ['buildId', 'started', 'listed'])),
      failingTests: arr(obj({ test: str(), classification: str(), bugs: arr(ref('BugRef')) }, ['test'])),
    }, ['job', 'kind'])),
  }, ['name', 'blocked', 'jobs'])),
  rejectedStreams: arr(str('release streams whose latest payloads were rejected')),
  releaseStreams: arr(obj({
    name: str(), latest: nullable(obj({ tag: str(), phase: str() })), lastAccepted: nullable(obj({ tag: str() })),
    blockingJobs: arr(obj({ name: str(), state: str(), url: str(), failingTests: arr(obj({ test: str() })) }, ['name', 'state'])),
    rejectedInARow: int('payloads rejected in a row at the head (the newest still being verified passed over); 0: the stream blocks nothing'),
    rejectedSince: nullable(iso('when the oldest payload of that streak was created')), lastAcceptedAt: nullable(iso('when the last accepted payload was created')),
    failingBlockingJobs: arr(obj({ name: str(), payloads: int('payloads of the streak it failed'), latest: { type: 'object', description: 'its failure in the newest of them (as blockingJobs)' } })),
    summary: str('one line a buildcop can paste'),
  }, ['name', 'rejectedInARow'])),
});

const bugLinkBody = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        description: 'The bug by URL or id; with a signature id the link is on that failure signature (so on every test failing with it).',
        properties: { bug: str('bug URL or id'), tracker: { type: 'string', enum: ['bugzilla', 'jira', 'github'] }, signature: str('signature id') },
        required: ['bug'],
      },
    },
  },
};

const testBugs = obj({ test: str(), id: str(), bugs: arr(ref('BugRef')) });

const hotlistParams = [
  WINDOW, AT, JOB,
  q('release', 'Release parsed from job names, e.g. 4.2.'),
  q('platform', 'Platform parsed from job names: aws, gcp, azure, metal, ...'),
  q('upgrade', 'Only upgrade jobs (true) or only others (false).', { type: 'string', enum: ['true', 'false'] }),
  q('owner', 'Owner from the test name ([sig-x] gives x).'),
  q('classification', 'Only tests with this verdict.', classification),
  q('noBug', 'Only tests without a linked bug.', { type: 'string', enum: ['true', 'false'] }),
  q('sort', 'failures (the window\'s failed runs, default) or severity (how long and how much a flake fails).', { type: 'string', enum: ['failures', 'severity'] }),
  q('test', 'Regular expression over test names (RE2 syntax).'),
  q('limit', 'Items at most (1..10000).', { type: 'integer', minimum: 1, maximum: 10000, default: 100 }),
  BUDGET,
];

/** A route of the JSON API: its path as OpenAPI writes it, the answer its GET serves (lib/server/answers.ts), its operations. */
export interface ApiRoute {
  path: string;
  answer?: AnswerName;
  spec: Record<string, unknown>;
}

/**
 * The route table: every route under app/api. The routes that serve an answer take it from here
 * (lib/server/answerRoute.ts) and /api/openapi.json is built from it; tests/api/routes.test.ts checks
 * that every route file is in it with the methods it exports, so a new route cannot be left out.
 */
export const API_ROUTES: ApiRoute[] = [
  { path: '/api/hotlist', answer: 'hotlist', spec: get('The tests failing most in a window', 'buildcop hotlist', hotlistParams, ref('Hotlist')) },
  { path: '/api/tests/{id}', answer: 'test', spec: get('One test: verdict, evidence, history, signatures, runs, bugs', 'buildcop test ID', [
        path('id', '16-digit test id (or the full test name, URL-encoded)'), WINDOW, AT, JOB,
        q('limit', 'Failed and flaked runs at most, newest first (1..10000); a page ends on a whole second, so it may list a few more.', { type: 'integer', minimum: 1, maximum: 10000, default: 200 }),
        q('before', 'Only runs that started before this time: the runsNext of the page before.', { type: 'string', format: 'date-time' }),
      ], ref('TestDetail'), [400, 404]) },
  { path: '/api/jobs', answer: 'jobs', spec: get('All jobs with pass rates', 'buildcop jobs', [WINDOW, AT], obj({ window: str(), from: iso(), to: iso(), jobs: arr(ref('JobSummary')) })) },
  { path: '/api/jobs/{name}', answer: 'job', spec: get('One job: daily pass rate, recent runs, most failing tests', 'buildcop job NAME', [path('name', 'job name'), WINDOW, AT], ref('JobDetail'), [400, 404]) },
  { path: '/api/runs/{job}/{buildId}', answer: 'run', spec: get('One run: state, refs, failed and flaked tests, parse errors', 'buildcop run JOB BUILD_ID', [path('job', 'job name'), path('buildId', 'Prow build id')], ref('RunDetail'), [404]) },
  { path: '/api/search', answer: 'search', spec: get(
      'Build logs, failure texts (and test names) and bug texts matching a regex, grouped by job and test, with context lines and matching runs per day',
      'buildcop search REGEX',
      [
        q('q', 'Regular expression, RE2 syntax (at most 500 characters; no backreferences or lookaround).', str(), true), { ...WINDOW, schema: { ...WINDOW.schema, default: '14d' } }, AT, JOB,
        q('limit', 'Tests, jobs and bugs at most, each (1..1000).', { type: 'integer', minimum: 1, maximum: 1000, default: 50 }),
        q('in', 'What to search, comma-separated: logs (the job\'s and failed steps\' build-log.txt, their last 20 MiB), failures (junit failure texts and test names), bugs.', { type: 'string', default: 'logs,failures,bugs' }),
        q('context', 'Lines of context around each matching line (0..20).', { type: 'integer', minimum: 0, maximum: 20, default: 2 }),
        BUDGET,
      ],
      ref('SearchResult'),
    ) },
  { path: '/api/stats', answer: 'stats', spec: get('Database totals and the last ingest', 'buildcop stats', [], ref('Stats'), []) },
  { path: '/api/ingest', answer: 'ingestLog', spec: get(
      'The ingest log: recent passes (with their warnings), the runs kept pending and why, the files that could not be parsed (200 of each list at most, with totals)',
      'buildcop ingest-log',
      [q('limit', 'Passes at most, newest first (1..1000).', { type: 'integer', minimum: 1, maximum: 1000, default: 20 })],
      ref('IngestLog'),
    ) },
  { path: '/api/health', spec: {
      get: {
        summary: 'Data freshness: ok, stale (last ingest over an hour ago), never-ingested, or unavailable',
        description: 'Same JSON as `buildcop health --json`. 503 when the database cannot be read.',
        responses: { 200: ok(ref('Health')), 503: ok(ref('Health'), 'Database unavailable') },
      },
    } },
  { path: '/api/openapi.json', spec: { get: { summary: 'This document', responses: { 200: ok({ type: 'object' }) } } } },
  { path: '/api/bugs', answer: 'bugs', spec: get('Known bugs and the tests they are linked to', 'buildcop bugs', [q('linked', 'Only bugs linked to some test.', { type: 'string', enum: ['true', 'false'] })], ref('Bugs'), []) },
  { path: '/api/tests/{id}/bugs', spec: {
      parameters: [path('id', '16-digit test id (or the full test name, URL-encoded)')],
      get: { summary: "The test's linked bugs", responses: { 200: ok(testBugs), ...errors([404]) } },
      post: {
        summary: 'Link a bug to the test (or to one of its signatures) by hand; survives re-ingest',
        description: 'Needs `Authorization: Bearer $BUILDCOP_ADMIN_TOKEN` (or the sign-in cookie); otherwise 401 and nothing changes.',
        security: [{ bearer: [] }, { session: [] }],
        requestBody: bugLinkBody,
        responses: { 200: ok({ type: 'object', properties: { ok: bool() }, additionalProperties: true }), ...errors([400, 401, 404, 429]) },
      },
      delete: {
        summary: 'Unlink a bug; unlinking an automatic link sticks',
        description: 'Needs `Authorization: Bearer $BUILDCOP_ADMIN_TOKEN` (or the sign-in cookie); otherwise 401 and nothing changes.',
        security: [{ bearer: [] }, { session: [] }],
        requestBody: bugLinkBody,
        responses: { 200: ok({ type: 'object', properties: { ok: bool() }, additionalProperties: true }), ...errors([400, 401, 404, 429]) },
      },
    } },
  { path: '/api/auth', spec: {
      get: { summary: 'Whether this browser is signed in and whether writes are enabled', responses: { 200: ok(obj({ signedIn: bool(), writesEnabled: bool() })) } },
      post: {
        summary: 'Sign in with the admin token: sets the HttpOnly session cookie (forms get a 303 back)',
        requestBody: { required: true, content: { 'application/json': { schema: obj({ token: str() }) } } },
        responses: { 200: ok({ type: 'object' }), ...errors([401, 408, 413, 429]) },
      },
      delete: { summary: 'Sign out', responses: { 200: ok({ type: 'object' }) } },
    } },
  { path: '/api/causes', answer: 'causes', spec: get(
      'The causes of a window (failure signatures across tests, install and setup step failures), most runs taken down first, each with its verdict over runs',
      'buildcop causes',
      [WINDOW, AT, JOB, q('release', 'Release parsed from job names, e.g. 4.2.'), q('limit', 'Causes at most (1..1000).', { type: 'integer', minimum: 1, maximum: 1000, default: 20 })],
      ref('Causes'),
    ) },
  { path: '/api/signatures/{id}', answer: 'signature', spec: get('One failure signature: text and a real example, its tests, runs per day, jobs and slices, bugs, example runs', 'buildcop signature ID', [path('id', 'signature id'), WINDOW, AT], { type: 'object', additionalProperties: true }, [400, 404]) },
  { path: '/api/promotion', answer: 'promotion', spec: get('Promotion gates and release streams: blocked or not, by which jobs and tests', 'buildcop promotion', [AT], ref('Promotion')) },
];

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'buildcop',
      version: '0.1.0',
      description: 'Which CI tests fail most, flake or regression (with evidence), linked bugs, promotion blockers. Each GET route returns what the matching `buildcop` CLI command prints with --json.',
    },
    paths: Object.fromEntries(API_ROUTES.map((r) => [r.path, r.spec])),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'BUILDCOP_ADMIN_TOKEN' },
        session: { type: 'apiKey', in: 'cookie', name: 'buildcop_session', description: 'set by signing in at /signin (POST /api/auth)' },
      },
      schemas: {
        Error: obj({ error: str('what was wrong and how to fix it'), detail: str('the underlying error, where there is one; for a 500, where the server logged it'), id: str('500 only: the id under which the server logged the error') }, ['error']),
        BugRef: bugRef,
        Hotlist: obj(
          { window: str(), from: iso(), to: iso(), filters: { type: 'object' }, totalItems: int(), withoutBug: int('failing tests without a linked bug'), items: arr(hotlistItem), partial: ref('Partial') },
          ['window', 'from', 'to', 'filters', 'totalItems', 'withoutBug', 'items'],
        ),
        Partial: partial,
        TestDetail: testDetail,
        JobSummary: jobSummary,
        JobDetail: jobDetail,
        RunDetail: runDetail,
        SearchResult: searchResult,
        Stats: stats,
        Health: health,
        IngestLog: ingestLog,
        Bugs: bugs,
        Promotion: promotion,
        Causes: obj({
          window: str(), from: iso(), to: iso(), filters: { type: 'object' }, totalCauses: int(),
          causes: arr(obj({
            id: str('signature id'), text: str('normalised failure text'), kind: { type: 'string', enum: ['signature', 'install', 'setup'] },
            runs: int('distinct runs of the window it took down'), tests: int('distinct tests failing with it'), jobs: arr(str()),
            firstSeen: iso(), lastSeen: iso(), classification, evidence, examples: arr({ type: 'object' }), bugs: arr({ type: 'object' }),
          })),
        }),
      },
    },
  };
}
