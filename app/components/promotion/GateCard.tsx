// One promotion gate: blocked or not and why, the paste-able summary, the 14-day timeline, and each
// blocking and informing job with its latest run, streak, pending runs and failing tests.
import Link from 'next/link';
import type { PromotionGate, PromotionJob } from '@/lib/promotion/types';
import { hrefWith, jobHref, safeUrl, shortTime } from '../format';
import FailingTests from './FailingTests';
import GateTimeline from './GateTimeline';

const runHref = (job: string, buildId: string) => `/runs/${encodeURIComponent(job)}/${encodeURIComponent(buildId)}`;

function LatestRun({ job, at }: { job: PromotionJob; at?: string }) {
  if (!job.latest) return <span className="muted">{job.note ?? 'no runs yet'}</span>;
  const prow = safeUrl(job.latest.url);
  return (
    <>
      <span className={`state-${job.latest.state}`}>{job.latest.state}</span>{' '}
      <Link href={hrefWith(runHref(job.job, job.latest.buildId), { at })} prefetch={false}>
        {job.latest.buildId}
      </Link>
      {prow && (
        <>
          {' '}
          (
          <a href={prow} rel="noopener noreferrer">
            Prow
          </a>
          )
        </>
      )}
      <span className="meta">
        finished <time dateTime={job.latest.finished ?? undefined}>{shortTime(job.latest.finished)}</time>
      </span>
    </>
  );
}

function JobRow({ job, at }: { job: PromotionJob; at?: string }) {
  const failing = job.latest && job.latest.state !== 'success';
  return (
    <tr data-testid="gate-job" data-job={job.job} data-kind={job.kind}>
      <td className="testname" data-label="Job">
        {job.note === 'regex matched no job yet' ? (
          <code>{job.job}</code>
        ) : (
          <Link href={jobHref(job.job)} prefetch={false}>
            {job.job}
          </Link>
        )}
        <span className="meta">
          {job.kind}
          {job.entry !== job.job ? ` (matched by ${job.entry})` : ''}
        </span>
      </td>
      <td data-label="Latest run">
        <LatestRun job={job} at={at} />
      </td>
      <td data-label="Streak">
        {job.consecutiveFailures ? (
          <strong className={failing ? 'state-failure' : undefined}>
            {job.consecutiveFailures} failed in a row
          </strong>
        ) : (
          <span className="muted">0 failures</span>
        )}
        <span className="meta">last success {job.lastSuccess ? <time dateTime={job.lastSuccess}>{shortTime(job.lastSuccess)}</time> : 'never'}</span>
      </td>
      <td data-label="Pending now">
        {job.pending.length ? (
          <ul className="plain small">
            {job.pending.map((p) => (
              <li key={p.buildId} className={p.listed ? 'state-pending' : 'muted'}>
                {safeUrl(p.url) ? <a href={safeUrl(p.url)}>{p.buildId}</a> : p.buildId}
                <span className="meta">started {shortTime(p.started)}</span>
                {!p.listed && <span className="meta">lost track: Deck stopped listing it{p.lastListed ? <> after <time dateTime={p.lastListed}>{shortTime(p.lastListed)}</time></> : null}, no result yet</span>}
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">none</span>
        )}
      </td>
      <td data-label="Failing tests">
        {job.latest ? <FailingTests tests={job.failingTests} at={at} /> : <span className="muted">—</span>}
        {job.promote && (
          <span className="meta">
            promotes <span className="promo-digest">{job.promote.candidate}</span>, current is <span className="promo-digest">{job.promote.current}</span>
          </span>
        )}
      </td>
    </tr>
  );
}

export default function GateCard({ gate, index, at }: { gate: PromotionGate; index: number; at?: string }) {
  const headingId = `gate-${index}-${gate.name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
  const state = gate.blocked ? 'blocked' : gate.jobs.some((j) => j.kind === 'blocking' && j.latest) ? 'ok' : 'no-runs';
  return (
    <section className="promo-gate" data-testid="gate" data-gate={gate.name} data-blocked={String(gate.blocked)} data-state={state} aria-labelledby={headingId}>
      <h3 id={headingId}>
        {gate.name}
        <span className={`promo-status ${state}`} data-testid="gate-status">
          {state === 'blocked' ? 'blocked' : state === 'ok' ? 'ok' : 'no runs yet'}
        </span>
      </h3>
      <p className="promo-summary" data-testid="gate-summary">
        {gate.summary}
      </p>
      <GateTimeline name={gate.name} timeline={gate.timeline} />
      <div className="table-wrap">
        <table className="cards">
          <caption className="visually-hidden">Jobs of {gate.name}</caption>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Latest finished run</th>
              <th scope="col">Streak</th>
              <th scope="col">Pending now</th>
              <th scope="col">Failing tests of the latest run</th>
            </tr>
          </thead>
          <tbody>
            {gate.jobs.map((j) => (
              <JobRow key={`${j.kind}:${j.job}`} job={j} at={at} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
