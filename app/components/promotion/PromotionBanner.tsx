// The home page banner naming every promotion blocker: each blocked gate with its failing blocking
// jobs, and each release stream whose latest payloads were rejected (how many in a row, since when,
// the blocking jobs that failed), linking to /promotion. Renders nothing when nothing blocks, nothing
// is configured, or the status cannot be read.
import Link from 'next/link';
import { answer } from '@/lib/server/answerPool';
import { getConfig } from '@/lib/server/context';
import { hrefWith, shortTime } from '../format';
import './promotion.css';

export default async function PromotionBanner({ at }: { at?: string } = {}) {
  const config = getConfig();
  if (!config?.promotion?.length && !config?.releaseController?.streams.length) return null;
  let status;
  try {
    status = await answer('promotionBanner', { at });
  } catch {
    return null; // the banner must never break the home page; /promotion shows the error
  }
  const gates = status.gates.filter((g) => g.blocked);
  const streams = status.releaseStreams.filter((s) => s.rejectedInARow > 0);
  if (!gates.length && !streams.length) return null;
  const href = hrefWith('/promotion', { at });
  return (
    <div className="notice error promo-banner" role="status" data-testid="promotion-banner">
      {gates.length > 0 && (
        <p data-testid="banner-gates">
          <Link href={href} prefetch={false}>
            Promotion blocked: {gates.map((g) => g.name).join(', ')}
          </Link>{' '}
          <span className="small muted">
            by {[...new Set(gates.flatMap((g) => g.jobs.filter((j) => j.kind === 'blocking' && j.latest && j.latest.state !== 'success').map((j) => j.job)))].join(', ')}
          </span>
        </p>
      )}
      {streams.map((s) => (
        <p key={s.name} data-testid="banner-stream">
          <Link href={`${href}#stream-${encodeURIComponent(s.name)}`} prefetch={false}>
            Release stream {s.name}: {s.rejectedInARow === 1 ? 'latest payload rejected' : `${s.rejectedInARow} payloads rejected in a row`}
          </Link>{' '}
          <span className="small muted">
            {s.rejectedSince && <>since {shortTime(s.rejectedSince)}; </>}
            {s.lastAccepted ? <>none accepted since {s.lastAcceptedAt ? shortTime(s.lastAcceptedAt) : s.lastAccepted.tag}</> : 'no accepted payload listed'}
            {s.failingBlockingJobs.length > 0 && <>; failing blocking {s.failingBlockingJobs.map((j) => `${j.name} (${j.payloads} of ${s.rejectedInARow})`).join(', ')}</>}
          </span>
        </p>
      ))}
    </div>
  );
}
