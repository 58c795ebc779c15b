// The Markdown a buildcop pastes into a bug: what fails, the verdict and its evidence, recent
// failures, and a permanent link (?at=...) that shows the same numbers forever.
import type { TestDetailResult } from '@/lib/answers/testDetail';

const fence = (s: string) => {
  const longest = Math.max(2, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
};

export function bugComment(d: TestDetailResult, permalink: string): string {
  const rate = d.runsCount ? `${((100 * d.failedRuns) / d.runsCount).toFixed(1)}%` : 'n/a';
  const lines = [
    `**${d.test}**`,
    '',
    `Verdict: **${d.classification}**: ${String(d.evidence.summary ?? '')}`,
    '',
    `In the ${d.window} up to ${d.to}: ${d.failedRuns} failed and ${d.flakedRuns} flaked of ${d.runsCount} runs (${rate} failed); ` +
      `${d.previousFailedRuns} failed of ${d.previousRuns} in the ${d.window} before.`,
  ];
  const jobs = [...new Set(d.runs.map((r) => r.job))];
  if (jobs.length) lines.push('', `Jobs: ${jobs.map((j) => `\`${j}\``).join(', ')}`);
  const sig = d.signatures.find((s) => s.count > 0) ?? d.signatures[0];
  if (sig) {
    const text = sig.text.length > 1200 ? `${sig.text.slice(0, 1200)}\n…` : sig.text;
    const f = fence(text);
    lines.push('', `Most common failure (${sig.count} in the window):`, f, text, f);
  }
  const recent = d.runs.slice(0, 5);
  if (recent.length) {
    lines.push('', 'Recent failures:');
    for (const r of recent) lines.push(`- [${r.job} #${r.buildId}](${r.url}) ${r.outcome} ${r.started}`);
  }
  lines.push('', `Details: ${permalink}`);
  return lines.join('\n');
}
