// The verdict as a coloured badge; the evidence summary is its tooltip (and the test page's text).
const LABELS: Record<string, string> = {
  regression: 'regression',
  broken: 'broken',
  flaky: 'flaky',
  infra: 'infra',
  fixed: 'fixed',
  failing: 'failing',
  passing: 'passing',
};

export default function VerdictBadge({ classification, summary }: { classification: string; summary?: string }) {
  const known = classification in LABELS ? classification : 'failing';
  return (
    <span className={`badge ${known}`} title={summary}>
      {LABELS[classification] ?? classification}
    </span>
  );
}
