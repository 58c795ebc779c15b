// A tiny server-rendered bar sparkline (no client JavaScript): per slice of the window, the share of
// runs that failed (red) and flaked (amber); a grey tick where the test ran without failing. Three
// paths, not a rect per bar: the hot list renders a hundred of these.
import type { HotlistItem } from '@/lib/answers/hotlist';

const W = 112;
const H = 28;
const r1 = (n: number) => Math.round(n * 10) / 10;

export default function Sparkline({ points }: { points: HotlistItem['sparkline'] }) {
  const step = W / Math.max(points.length, 1);
  const barW = r1(Math.max(1, step - 1));
  let ok = '';
  let failed = '';
  let flaked = '';
  let nFailed = 0;
  let nFlaked = 0;
  let nRuns = 0;
  points.forEach((p, i) => {
    nFailed += p.failed;
    nFlaked += p.flaked;
    nRuns += p.runs;
    if (!p.runs) return;
    const x = r1(i * step);
    const bar = (y: number, h: number) => `M${x} ${r1(y)}h${barW}v${r1(h)}h${-barW}z`;
    if (!p.failed && !p.flaked) {
      ok += bar(H - 2, 2);
      return;
    }
    const hf = p.failed ? Math.max(1.5, (p.failed / p.runs) * (H - 2)) : 0;
    const hk = p.flaked ? Math.max(1.5, (p.flaked / p.runs) * (H - 2)) : 0;
    if (hf) failed += bar(H - hf, hf);
    if (hk) flaked += bar(H - hf - hk, hk);
  });
  const label = `${nFailed} failed and ${nFlaked} flaked of ${nRuns} runs over ${points.length} slices of the window`;
  return (
    <svg className="spark" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} preserveAspectRatio="none">
      {ok && <path className="bar-ok" d={ok} />}
      {failed && <path className="bar-failed" d={failed} />}
      {flaked && <path className="bar-flaked" d={flaked} />}
    </svg>
  );
}
