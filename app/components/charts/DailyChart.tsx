'use client';
// One chart component for every daily chart (test history, job pass rate, search matches): bars,
// stacked or side by side, and optional lines on a right-hand percentage axis. Its box has a fixed
// height in CSS, so nothing moves when Recharts draws it in the browser.
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';

export interface Series {
  key: string;
  label: string;
  color: string;
  /** bars with the same stack id are stacked */
  stack?: string;
}

export interface DailyChartProps {
  data: Record<string, string | number | null>[];
  bars: Series[];
  /** share lines (0..1) drawn on a right axis as percentages */
  lines?: Series[];
  /** accessible name of the chart */
  title: string;
  testId?: string;
  short?: boolean;
}

const percent = (v: number) => `${Math.round(v * 100)}%`;

export default function DailyChart({ data, bars, lines = [], title, testId, short }: DailyChartProps) {
  return (
    <div className={`chart${short ? ' short' : ''}`} data-testid={testId} role="figure" aria-label={title}>
      <ComposedChart responsive style={{ width: '100%', height: '100%' }} data={data} margin={{ top: 8, right: lines.length ? 8 : 16, bottom: 0, left: 0 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tickFormatter={(d: string) => d.slice(5)} minTickGap={12} />
        <YAxis yAxisId="count" allowDecimals={false} width={40} />
        {lines.length > 0 && <YAxis yAxisId="share" orientation="right" domain={[0, 1]} tickFormatter={percent} width={44} />}
        <Tooltip formatter={(value, name) => (lines.some((l) => l.label === name) && typeof value === 'number' ? percent(value) : value)} />
        <Legend />
        {bars.map((b) => (
          <Bar key={b.key} yAxisId="count" dataKey={b.key} name={b.label} fill={b.color} stackId={b.stack} isAnimationActive={false} />
        ))}
        {lines.map((l) => (
          <Line key={l.key} yAxisId="share" dataKey={l.key} name={l.label} stroke={l.color} strokeWidth={2} dot={false} connectNulls isAnimationActive={false} />
        ))}
      </ComposedChart>
    </div>
  );
}
