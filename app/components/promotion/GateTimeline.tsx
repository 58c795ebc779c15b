// A gate's last 14 days as one bar: red while blocked, green while not, grey before any run.
// Server-rendered SVG (no client script); each stretch says its dates on hover and in the list.
import type { TimelineEntry } from '@/lib/promotion/types';
import { shortTime } from '../format';

const W = 1000;
const LABEL = { blocked: 'blocked', unblocked: 'not blocked', 'no-runs': 'no runs yet' } as const;

export default function GateTimeline({ name, timeline }: { name: string; timeline: TimelineEntry[] }) {
  if (!timeline.length) return null;
  const start = Date.parse(timeline[0].from);
  const end = Date.parse(timeline[timeline.length - 1].to);
  const span = Math.max(1, end - start);
  const x = (t: string) => ((Date.parse(t) - start) / span) * W;
  const blocked = timeline.filter((s) => s.blocked);
  const blockedMs = blocked.reduce((sum, s) => sum + Date.parse(s.to) - Date.parse(s.from), 0);
  const days: number[] = [];
  for (let t = Math.ceil(start / 86_400_000) * 86_400_000; t < end; t += 86_400_000) days.push(((t - start) / span) * W);
  const label = `${name} over the last 14 days: blocked ${blocked.length} time${blocked.length === 1 ? '' : 's'}, ${(blockedMs / 3_600_000).toFixed(1)} hours in all`;
  return (
    <figure className="promo-timeline" data-testid="timeline" data-blocked-stretches={blocked.length}>
      <svg viewBox={`0 0 ${W} 20`} preserveAspectRatio="none" role="img" aria-label={label}>
        <title>{label}</title>
        {timeline.map((s) => (
          <rect key={s.from} className={`seg-${s.state}`} x={x(s.from)} y={0} width={Math.max(0.5, x(s.to) - x(s.from))} height={20} data-state={s.state}>
            <title>{`${LABEL[s.state]}: ${shortTime(s.from)} – ${shortTime(s.to)}${s.blockers.length ? ` (${s.blockers.map((b) => `${b.job} ${b.buildId} ${b.state}`).join(', ')})` : ''}`}</title>
          </rect>
        ))}
        {days.map((d) => (
          <line key={d} className="tick" x1={d} x2={d} y1={14} y2={20} />
        ))}
      </svg>
      <div className="promo-axis" aria-hidden="true">
        <span>{shortTime(timeline[0].from)}</span>
        <span>{shortTime(timeline[timeline.length - 1].to)}</span>
      </div>
      <figcaption>
        <ul className="promo-legend">
          <li>
            <span className="swatch blocked" />
            blocked
          </li>
          <li>
            <span className="swatch unblocked" />
            not blocked
          </li>
          <li>
            <span className="swatch no-runs" />
            no runs yet
          </li>
        </ul>
        {blocked.length ? (
          <details className="small">
            <summary>
              Blocked {blocked.length} time{blocked.length === 1 ? '' : 's'} ({(blockedMs / 3_600_000).toFixed(1)} h)
            </summary>
            <ul>
              {blocked.map((s) => (
                <li key={s.from}>
                  <time dateTime={s.from}>{shortTime(s.from)}</time> – <time dateTime={s.to}>{shortTime(s.to)}</time>
                  {s.blockers.length ? `: ${s.blockers.map((b) => `${b.job} ${b.buildId} (${b.state})`).join(', ')}` : ''}
                </li>
              ))}
            </ul>
          </details>
        ) : (
          <p className="small muted">Not blocked in these 14 days.</p>
        )}
      </figcaption>
    </figure>
  );
}
