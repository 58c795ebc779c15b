// Release streams as the release controller last reported them: the latest payload and its phase,
// the last accepted one, and the failed blocking jobs of rejected payloads joined to their Prow runs.
import Link from 'next/link';
import type { ReleaseStreamStatus, StreamJob } from '@/lib/promotion/types';
import { hrefWith, safeUrl, shortTime } from '../format';
import FailingTests from './FailingTests';

const runHref = (job: string, buildId: string) => `/runs/${encodeURIComponent(job)}/${encodeURIComponent(buildId)}`;

function StreamJobItem({ job, at }: { job: StreamJob; at?: string }) {
  const url = safeUrl(job.url);
  return (
    <li data-testid="stream-job" data-job={job.name} data-state={job.state}>
      <strong>{job.name}</strong> <span className={job.state === 'Failed' ? 'state-failure' : job.state === 'Succeeded' ? 'state-success' : 'state-pending'}>{job.state}</span>
      {job.run ? (
        <>
          {' '}
          run{' '}
          <Link href={hrefWith(runHref(job.run.job, job.run.buildId), { at })} prefetch={false} data-testid="stream-job-run">
            {job.run.job} {job.run.buildId}
          </Link>
        </>
      ) : (
        <span className="muted"> (run not ingested{url ? '' : ', no URL'})</span>
      )}
      {url && (
        <>
          {' '}
          (
          <a href={url} rel="noopener noreferrer">
            Prow
          </a>
          )
        </>
      )}
      {job.state === 'Failed' && job.run && (
        <div>
          <FailingTests tests={job.failingTests} at={at} />
        </div>
      )}
    </li>
  );
}

function Stream({ stream, at }: { stream: ReleaseStreamStatus; at?: string }) {
  const older = stream.rejected.filter((r) => r.tag !== stream.latest?.tag);
  return (
    <section className="promo-gate" id={`stream-${stream.name}`} data-testid="stream" data-stream={stream.name} data-blocked={String(stream.rejectedInARow > 0)}>
      <h3>
        {stream.name}
        {stream.rejectedInARow > 0 && <span className="promo-status blocked">{stream.rejectedInARow} rejected in a row</span>}
      </h3>
      {stream.summary && <p className="promo-summary" data-testid="stream-summary">{stream.summary}</p>}
      {!stream.latest ? (
        <p className="muted">No payloads known yet: the release controller has not been read (run an ingest pass with "releaseController" configured).</p>
      ) : (
        <>
          <dl className="facts">
            <div>
              <dt>Latest payload</dt>
              <dd data-testid="stream-latest">
                <code>{stream.latest.tag}</code> <span className={`promo-phase ${stream.latest.phase}`}>{stream.latest.phase}</span>
              </dd>
            </div>
            <div>
              <dt>Last accepted</dt>
              <dd data-testid="stream-last-accepted">{stream.lastAccepted ? <code>{stream.lastAccepted.tag}</code> : <span className="muted">none listed</span>}</dd>
            </div>
            <div>
              <dt>Read</dt>
              <dd className="muted">
                {stream.tags} tags, <time dateTime={stream.fetchedAt ?? undefined}>{shortTime(stream.fetchedAt)}</time>
              </dd>
            </div>
          </dl>
          <h4>Blocking jobs of {stream.latest.tag}</h4>
          {stream.blockingJobs.length ? (
            <ul className="plain">
              {stream.blockingJobs.map((j) => (
                <StreamJobItem key={j.name} job={j} at={at} />
              ))}
            </ul>
          ) : (
            <p className="muted">No blocking job results recorded for this payload.</p>
          )}
          {older.length > 0 && (
            <details>
              <summary>
                {older.length} more rejected payload{older.length === 1 ? '' : 's'} since the last accepted one
              </summary>
              <ul>
                {older.map((r) => (
                  <li key={r.tag}>
                    <code>{r.tag}</code> <span className={`promo-phase ${r.phase}`}>{r.phase}</span>
                    <ul className="plain">
                      {r.failedBlockingJobs.map((j) => (
                        <StreamJobItem key={j.name} job={j} at={at} />
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}

export default function ReleaseStreams({ streams, at }: { streams: ReleaseStreamStatus[]; at?: string }) {
  if (!streams.length) return <p className="muted">No release streams configured (config key "releaseController").</p>;
  return (
    <div className="promo-gates">
      {streams.map((s) => (
        <Stream key={s.name} stream={s} at={at} />
      ))}
    </div>
  );
}
