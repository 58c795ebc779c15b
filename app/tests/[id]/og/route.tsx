// The OpenGraph image of a test page: name, verdict and the daily chart, drawn with next/og's
// bundled font (no network). Slack and Jira show it when a test link is pasted.
import { ImageResponse } from 'next/og';
import type { NextRequest } from 'next/server';
import { COLORS } from '@/app/components/charts/colors';
import { daysBetween, segment } from '@/app/components/format';
import { loadTest } from '@/app/components/test/loadTest';
import { internalError } from '@/lib/server/api';

// Satori fetches fonts from the network for glyphs its font lacks; keep to what the bundled font has.
const latin = (s: string) => s.replace(/[^\x20-\x7e\u00a0-\u024f]/g, '?');
const BADGE: Record<string, string> = { regression: '#c62828', broken: '#8e1b1b', flaky: '#b26a00', infra: '#6a4fb3', failing: '#5f6b7a', passing: '#2e7d32' };

export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const q = new URL(req.url).searchParams;
  let d;
  try {
    d = await loadTest(segment(id), q.get('window') ?? undefined, q.get('at') ?? undefined, q.get('job') ?? undefined);
  } catch (e) {
    const status = (e as { status?: number }).status ?? 500;
    if (status >= 400 && status < 500) return new Response(`${(e as Error).message}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    return new Response(`internal error, ${internalError(e).detail}\n`, { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const days = daysBetween(d.from, d.to).map((day) => ({ day, passed: 0, failed: 0, flaked: 0 }));
  const byDay = new Map(days.map((x) => [x.day, x]));
  for (const h of d.history) {
    const e = byDay.get(h.day);
    if (!e) continue;
    e.passed += h.runs - h.failed - h.flaked;
    e.failed += h.failed;
    e.flaked += h.flaked;
  }
  const max = Math.max(1, ...days.map((x) => x.passed + x.failed + x.flaked));
  const chartH = 300;
  const name = latin(d.test);
  return new ImageResponse(
    (
      <div style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', background: '#ffffff', color: '#1b1f24', padding: 48 }}>
        <div style={{ display: 'flex', fontSize: 26, color: '#59636e' }}>buildcop · test {d.id}</div>
        <div style={{ display: 'flex', fontSize: name.length > 120 ? 30 : 38, marginTop: 12, lineHeight: 1.2, maxHeight: 140, overflow: 'hidden' }}>{name}</div>
        <div style={{ display: 'flex', alignItems: 'center', marginTop: 18, fontSize: 28 }}>
          <div style={{ display: 'flex', background: BADGE[d.classification] ?? '#5f6b7a', color: '#ffffff', borderRadius: 24, padding: '4px 20px' }}>{d.classification}</div>
          <div style={{ display: 'flex', marginLeft: 20 }}>{`${d.failedRuns} failed, ${d.flakedRuns} flaked of ${d.runsCount} runs in the ${d.window} to ${d.to.slice(0, 16).replace('T', ' ')} UTC`}</div>
        </div>
        <div style={{ display: 'flex', alignItems: 'flex-end', height: chartH, marginTop: 'auto', borderBottom: '2px solid #d0d7de' }}>
          {days.map((x) => (
            <div key={x.day} style={{ display: 'flex', flexDirection: 'column-reverse', flexGrow: 1, margin: '0 4px', height: chartH }}>
              <div style={{ display: 'flex', height: (x.passed / max) * chartH, background: COLORS.passed }} />
              <div style={{ display: 'flex', height: (x.flaked / max) * chartH, background: COLORS.flaked }} />
              <div style={{ display: 'flex', height: (x.failed / max) * chartH, background: COLORS.failed }} />
            </div>
          ))}
        </div>
      </div>
    ),
    { width: 1200, height: 630, headers: { 'cache-control': 'public, max-age=300' } },
  );
}
