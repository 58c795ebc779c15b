// The home page banner when a promotion gate is blocked: "Promotion blocked: <gates>", linking to
// /promotion. Renders nothing when no gate is blocked, none is configured, or the status cannot be read.
import Link from 'next/link';
import { promotionStatus } from '@/lib/answers/promotion';
import { parseAt } from '@/lib/history/window';
import { getConfig, getDb } from '@/lib/server/context';
import { hrefWith } from '../format';
import './promotion.css';

export default async function PromotionBanner({ at }: { at?: string } = {}) {
  const config = getConfig();
  if (!config?.promotion?.length) return null;
  let status;
  try {
    status = await promotionStatus(await getDb(), config, { at: parseAt(at), verdicts: false });
  } catch {
    return null; // the banner must never break the home page; /promotion shows the error
  }
  if (!status.blockedGates.length) return null;
  const blockers = [
    ...new Set(status.gates.filter((g) => g.blocked).flatMap((g) => g.jobs.filter((j) => j.kind === 'blocking' && j.latest && j.latest.state !== 'success').map((j) => j.job))),
  ];
  return (
    <div className="notice error promo-banner" role="status" data-testid="promotion-banner">
      <Link href={hrefWith('/promotion', { at })} prefetch={false}>
        Promotion blocked: {status.blockedGates.join(', ')}
      </Link>
      <span className="small muted">by {blockers.join(', ')}</span>
    </div>
  );
}
