'use client';
// A test's daily passed/failed/flaked runs, for all jobs or one job (picked here, in the browser).
import { useId, useMemo, useState } from 'react';
import { COLORS } from './colors';
import DailyChart from './DailyChart';

export interface HistoryRow {
  day: string;
  job: string;
  runs: number;
  failed: number;
  flaked: number;
}

export default function TestHistoryChart({ history, days }: { history: HistoryRow[]; days: string[] }) {
  const [job, setJob] = useState('');
  const selectId = useId();
  const jobs = useMemo(() => [...new Set(history.map((h) => h.job))].sort(), [history]);
  const data = useMemo(() => {
    const byDay = new Map(days.map((d) => [d, { day: d, passed: 0, failed: 0, flaked: 0 }]));
    for (const h of history) {
      if (job && h.job !== job) continue;
      const e = byDay.get(h.day);
      if (!e) continue;
      e.passed += h.runs - h.failed - h.flaked;
      e.failed += h.failed;
      e.flaked += h.flaked;
    }
    return [...byDay.values()];
  }, [history, days, job]);
  return (
    <>
      <div className="chart-head">
        <label htmlFor={selectId}>Job</label>
        <select id={selectId} value={job} onChange={(e) => setJob(e.target.value)}>
          <option value="">all jobs ({jobs.length})</option>
          {jobs.map((j) => (
            <option key={j} value={j}>
              {j}
            </option>
          ))}
        </select>
      </div>
      <DailyChart
        testId="test-history-chart"
        title={`Runs of the test per day${job ? ` in ${job}` : ''}: passed, failed and flaked`}
        data={data}
        bars={[
          { key: 'passed', label: 'passed', color: COLORS.passed, stack: 'runs' },
          { key: 'flaked', label: 'flaked', color: COLORS.flaked, stack: 'runs' },
          { key: 'failed', label: 'failed', color: COLORS.failed, stack: 'runs' },
        ]}
      />
    </>
  );
}
