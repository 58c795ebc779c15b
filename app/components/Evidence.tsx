// The evidence behind a verdict, readable: the numbers a buildcop pastes into a bug ("a real
// regression since this payload", "a trivial flake: failed and passed on the same payload").
// Known fields get labels and links; anything else is listed generically, never dropped.
import type { ReactNode } from 'react';
import { isUnchangedJobSlice } from '@/lib/verdicts/rules';
import { pct, safeUrl, shortTime } from './format';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

export function runHref(job: string, buildId: string): string {
  return `/runs/${encodeURIComponent(job)}/${encodeURIComponent(buildId)}`;
}

function RunRef({ run }: { run: Obj }) {
  const job = String(run.job ?? '');
  const buildId = String(run.buildId ?? '');
  const url = safeUrl(run.url as string);
  return (
    <>
      <a href={runHref(job, buildId)}>
        {job} #{buildId}
      </a>
      {run.started ? <span className="muted"> started {shortTime(String(run.started))}</span> : null}
      {url && (
        <>
          {' '}
          (<a href={url}>Prow</a>)
        </>
      )}
      {run.payload ? <span className="muted"> · payload {String(run.payload)}</span> : null}
    </>
  );
}

function ratio(v: Obj): string {
  const failed = num(v.failed) ?? 0;
  const runs = num(v.runs) ?? 0;
  return `${failed} of ${runs} runs failed (${runs ? pct(failed / runs) : 'n/a'})`;
}

const LABELS: Record<string, string> = {
  changeAt: 'Change around',
  before: 'Before',
  after: 'After',
  pValue: 'p-value (Fisher, one-sided)',
  firstFailingRun: 'First failing run',
  previousRun: 'Run of the same job before it',
  payloadChanged: 'Payload changed',
  commitChanged: 'Commit changed',
  jobs: 'Jobs',
  threshold: 'Threshold',
  failedRuns: 'Failed runs in the last 14 days',
  flakedRuns: 'Runs where it failed then passed on retry',
  runs: 'Runs in the last 14 days',
  lookbackFrom: 'Judged on the runs since',
  sameConditionPairs: 'Failed and passed under the same conditions',
  sameConditionCount: 'Such pairs',
  failureRate: 'Failure rate (retries that passed included)',
  changedIn: 'Rose in',
  notChangedIn: 'Not in',
  unclearIn: 'Too few runs to tell in',
  slices: 'Per slice, before and after the change',
  unchangedJobSlices: 'Jobs where it did not rise',
  streaks: 'Failed the latest runs of',
  outsideBrokenRuns: 'Failures outside broken runs',
  lastFailure: 'Last failure',
  lastFailingRun: 'Last failing run',
  firstCleanRun: 'First clean run after it',
  cleanRuns: 'Clean runs since',
  chanceAtOldRate: 'Chance of that many clean runs at the old rate',
  oldFailureRate: 'Failure rate before',
  bug: 'Bug closed',
  severity: 'How long and how much',
  firstSeen: 'First seen failing',
  daysWithFailure: 'Days with a failure, of 14',
  trend: 'Trend (last 7 days against the 7 before)',
  recentRate: 'Failure rate, last 7 days',
  basisRate: 'Failure rate, the 7 days before',
  score: 'Severity score',
  withInstallFailure: 'Failures in runs whose install or setup failed',
  withMassFailure: 'Failures in runs where many tests failed together',
  medianFailedTestsPerRun: 'Median tests failed in those runs',
  massFailureThreshold: '"Many tests" means at least',
};

function label(key: string): string {
  return LABELS[key] ?? key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

function value(key: string, v: unknown, all: Obj): ReactNode {
  if (v === null || v === undefined) return '—';
  if ((key === 'pValue' || key === 'chanceAtOldRate') && typeof v === 'number') return v < 1e-4 ? v.toExponential(1) : v.toPrecision(2);
  if (key === 'slices' && Array.isArray(v)) return <Slices slices={v as Obj[]} />;
  if ((key === 'changeAt' || key === 'lastFailure' || key === 'lookbackFrom' || key === 'firstSeen') && typeof v === 'string') return <time dateTime={v}>{shortTime(v)}</time>;
  if (key === 'bug' && isObj(v)) {
    const url = safeUrl(v.url as string);
    return (
      <>
        {url ? <a href={url}>{String(v.tracker)} {String(v.id)}</a> : `${String(v.tracker)} ${String(v.id)}`} ({String(v.status)}) closed{' '}
        <time dateTime={String(v.closedAt)}>{shortTime(String(v.closedAt))}</time>
      </>
    );
  }
  if ((key === 'threshold' || key.endsWith('Rate') || key.startsWith('failureRate')) && typeof v === 'number') return pct(v);
  if (key === 'commitChanged' && isObj(v) && isObj(all.payloadChanged) && v.to === all.payloadChanged.to) return 'with the payload';
  if (isObj(v)) {
    if ('from' in v && 'to' in v) return `${String(v.from)} → ${String(v.to)}`;
    if ('buildId' in v && 'job' in v) return <RunRef run={v} />;
    if ('failed' in v && 'runs' in v) return ratio(v);
    return <Facts evidence={v} />;
  }
  if (Array.isArray(v)) {
    if (!v.length) return 'none';
    return (
      <ul className="plain">
        {v.slice(0, 10).map((x, i) => (
          <li key={i}>{listItem(key, x)}</li>
        ))}
        {v.length > 10 && <li className="muted">and {v.length - 10} more</li>}
      </ul>
    );
  }
  return String(v);
}

function listItem(key: string, x: unknown): ReactNode {
  if (!isObj(x)) return String(x);
  if (key === 'sameConditionPairs') {
    const job = String(x.job ?? '');
    return (
      <>
        {job} on {String(x.on)} <code>{String(x.value)}</code>: failed in{' '}
        <a href={runHref(job, String(x.failed))}>
          #{String(x.failed)}
        </a>
        , passed in{' '}
        <a href={runHref(job, String(x.passed))}>
          #{String(x.passed)}
        </a>
      </>
    );
  }
  if ('job' in x && 'failed' in x && 'runs' in x) {
    return (
      <>
        <a href={`/jobs/${encodeURIComponent(String(x.job))}`}>
          {String(x.job)}
        </a>
        : {ratio(x)}
      </>
    );
  }
  return <Facts evidence={x} />;
}

// jobs where it did not rise, listed at most: at OpenShift's scale a test runs in hundreds of jobs,
// and the release and platform slices already say where it did not change
const UNCHANGED_JOBS_SHOWN = 10;

/** Where a regression changed and where it did not: the slices with runs, judged at the change. */
function Slices({ slices }: { slices: Obj[] }) {
  let unchangedJobs = 0;
  const shown = slices.filter((s) => !isUnchangedJobSlice(s) || ++unchangedJobs <= UNCHANGED_JOBS_SHOWN);
  const hidden = slices.length - shown.length;
  const side = (failed: unknown, runs: unknown) => `${Number(failed)}/${Number(runs)}${Number(runs) ? ` (${pct(Number(failed) / Number(runs))})` : ''}`;
  return (
    <table className="slices" data-testid="slices">
      <thead>
        <tr>
          <th>Slice</th>
          <th>Before</th>
          <th>After</th>
          <th>p</th>
          <th>Rose?</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((s, i) => (
          <tr key={i} className={s.changed ? 'changed' : 'muted'}>
            <td>{s.job ? <a href={`/jobs/${encodeURIComponent(String(s.job))}`}>{String(s.job)}</a> : `${String(s.release || 'unversioned')} ${String(s.platform || 'any platform')}${s.upgrade ? ' upgrade' : ''}`}</td>
            <td>{side(s.failedBefore, s.runsBefore)}</td>
            <td>{side(s.failedAfter, s.runsAfter)}</td>
            <td>{value('pValue', s.pValue, s)}</td>
            <td>{s.status === 'unclear' ? 'too few runs to tell' : s.changed ? 'rose' : 'no'}</td>
          </tr>
        ))}
        {hidden > 0 && (
          <tr className="muted">
            <td colSpan={5}>and {hidden} more jobs where it did not rise (every slice is in the JSON API)</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

export function Facts({ evidence }: { evidence: Obj }) {
  const entries = Object.entries(evidence).filter(([k]) => k !== 'summary');
  if (!entries.length) return null;
  return (
    <dl className="facts">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{label(k)}</dt>
          <dd>{value(k, v, evidence)}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function Evidence({ evidence }: { evidence: Obj }) {
  return (
    <>
      <p className="evidence-summary">{String(evidence.summary ?? '')}</p>
      <Facts evidence={evidence} />
    </>
  );
}
