// The ingest log: can the numbers on the other pages be trusted? Recent passes with the warnings of
// sources that failed without failing them, the runs kept pending and why, the files that could not
// be parsed. The freshness line links here when the latest pass failed.
import type { Metadata } from 'next';
import type { IngestLog, PendingWhy } from '@/lib/answers/ingestLog';
import { answer } from '@/lib/server/answerPool';
import { runHref } from '../components/Evidence';
import { flatParams, jobHref, safeUrl, shortTime, type SearchParams } from '../components/format';
import { pageData } from '../components/pageData';
import QueryError from '../components/QueryError';

export const metadata: Metadata = { title: 'Ingest log', description: 'What ingest did and what it is waiting for.' };

const n = (x: number) => x.toLocaleString('en-US');
const WHY: Record<PendingWhy, string> = { running: 'running', retrying: 'finished, not read yet', lost: 'lost track' };

export default async function IngestPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const p = flatParams(await searchParams);
  const result = await pageData(() => answer('ingestLog', p));
  return (
    <>
      <h1>Ingest log</h1>
      {!result.ok ? <QueryError message={result.error} /> : <Log log={result.data} />}
    </>
  );
}

function Log({ log }: { log: IngestLog }) {
  const latest = log.passes[0];
  return (
    <>
      {!latest ? (
        <p className="notice warn" role="status">
          No ingest pass yet. Run <code>npx buildcop ingest</code>.
        </p>
      ) : (
        (latest.status === 'failed' || latest.warnings.length > 0) && (
          <div className="notice warn" role="status" data-testid="latest-pass-problems">
            <strong>{latest.status === 'failed' ? `The latest pass failed: ${latest.message}` : 'The latest pass completed with warnings:'}</strong>
            {latest.warnings.length > 0 && (
              <ul>
                {latest.warnings.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            )}
          </div>
        )
      )}
      <Passes log={log} />
      <Pending log={log} />
      <ParseErrors log={log} />
    </>
  );
}

function Passes({ log }: { log: IngestLog }) {
  if (!log.passes.length) return null;
  return (
    <section aria-labelledby="passes-h">
      <h2 id="passes-h">Passes, newest first</h2>
      <div className="table-wrap">
        <table className="cards" data-testid="ingest-passes">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">Seconds</th>
              <th scope="col" className="num">Runs new</th>
              <th scope="col" className="num">Updated</th>
              <th scope="col" className="num">Pending</th>
              <th scope="col" className="num">Failed</th>
              <th scope="col" className="num">Test results</th>
              <th scope="col" className="num">Parse errors</th>
              <th scope="col" className="num">MB</th>
            </tr>
          </thead>
          <tbody>
            {log.passes.map((p) => (
              <tr key={p.id}>
                <td data-label="Started">
                  <time dateTime={p.startedAt}>{shortTime(p.startedAt)}</time>
                  {p.message && <span className="meta">{p.message}</span>}
                  {p.warnings.map((w, i) => (
                    <span key={i} className="meta">
                      warning: {w}
                    </span>
                  ))}
                </td>
                <td data-label="Status" className={p.status === 'ok' ? 'state-success' : p.status === 'running' ? 'state-pending' : 'state-failure'}>
                  {p.status}
                </td>
                <td className="num" data-label="Seconds">{p.seconds.toFixed(1)}</td>
                <td className="num" data-label="Runs new">
                  {n(p.runsNew)}
                  {p.runsBackfilled > 0 && <span className="meta">{n(p.runsBackfilled)} from GCS (backfill)</span>}
                  {p.runsPruned > 0 && <span className="meta">{n(p.runsPruned)} pruned (retention)</span>}
                </td>
                <td className="num" data-label="Updated">{n(p.runsUpdated)}</td>
                <td className="num" data-label="Pending">
                  {n(p.runsPending)}
                  {p.runsLost > 0 && <span className="meta">{n(p.runsLost)} lost track of</span>}
                </td>
                <td className="num" data-label="Failed">
                  {n(p.runsFailed)}
                  {p.runsNotStored > 0 && <span className="meta">{n(p.runsNotStored)} not stored</span>}
                </td>
                <td className="num" data-label="Test results">{n(p.testResults)}</td>
                <td className="num" data-label="Parse errors">{n(p.parseErrors)}</td>
                <td className="num" data-label="MB">{(p.downloadedBytes / 1e6).toFixed(1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Pending({ log }: { log: IngestLog }) {
  const { pending } = log;
  return (
    <section aria-labelledby="pending-h">
      <h2 id="pending-h">
        Pending runs ({n(pending.total)}: {n(pending.running)} running, {n(pending.retrying)} finished but not read yet, {n(pending.lost)} lost track of)
      </h2>
      {pending.runs.length === 0 ? (
        <p className="muted">None: every run Deck lists finished is stored.</p>
      ) : (
        <>
          {pending.total > pending.runs.length && <p className="muted small">The latest {pending.runs.length} by start.</p>}
          <ul data-testid="ingest-pending">
            {pending.runs.map((r) => (
              // not stored yet, so no run page: Prow's is the one to see
              <li key={`${r.job}/${r.buildId}`} className={r.why === 'lost' ? 'muted' : undefined} data-why={r.why}>
                <a href={jobHref(r.job)}>{r.job}</a> {safeUrl(r.url) ? <a href={safeUrl(r.url)}>#{r.buildId}</a> : `#${r.buildId}`}: {WHY[r.why]}, started{' '}
                {shortTime(r.started)}
                {r.why === 'lost' && r.lastListed && <>, Deck stopped listing it after {shortTime(r.lastListed)}</>}
                {r.attempts > 0 && (
                  <span className="meta">
                    {r.attempts} {r.attempts === 1 ? 'try' : 'tries'}
                    {r.nextCheck && <>, next after {shortTime(r.nextCheck)}</>}
                    {r.lastError && <>: {r.lastError}</>}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function ParseErrors({ log }: { log: IngestLog }) {
  const { parseErrors } = log;
  return (
    <section aria-labelledby="parse-errors-h">
      <h2 id="parse-errors-h">
        Parse errors ({n(parseErrors.total)} in {n(parseErrors.runs)} run{parseErrors.runs === 1 ? '' : 's'})
      </h2>
      {parseErrors.errors.length === 0 ? (
        <p className="muted">None: every file read was parsed.</p>
      ) : (
        <>
          <p className="muted small">
            A file that could not be parsed is recorded on its run, and the rest of the run is kept.{' '}
            {parseErrors.total > parseErrors.errors.length && `The latest ${parseErrors.errors.length} recorded.`}
          </p>
          <ul data-testid="ingest-parse-errors">
            {parseErrors.errors.map((e, i) => (
              <li key={i}>
                <a href={runHref(e.job, e.buildId)}>
                  {e.job} #{e.buildId}
                </a>{' '}
                <code>{e.file}</code>
                <span className="meta">{e.message}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
