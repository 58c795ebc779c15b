// promotion: is a release promotion blocked, by which jobs and tests, and what the release
// controller says about each stream's payloads.
import { loadConfigIfPresent } from '../config';
import { parsePromotionQuery, promotionStatus } from '../answers/promotion';
import { type PromotionStatus } from '../promotion/types';
import { describeTests, lostTrack, streamSummary } from '../promotion/text';
import { openDatabase } from '../store/db';
import { parse, printJson } from './args';
import type { Command } from './command';

export function renderPromotion(s: PromotionStatus): string {
  const out: string[] = [`Promotion status at ${s.at}`, ''];
  if (!s.gates.length) out.push('No promotion gates configured (config key "promotion").');
  for (const g of s.gates) {
    out.push(`${g.blocked ? 'BLOCKED' : 'ok     '} ${g.name}: ${g.reason}`);
    for (const j of g.jobs) {
      const latest = j.latest ? `${j.latest.state} ${j.latest.buildId} finished ${j.latest.finished}` : (j.note ?? 'no runs yet');
      const streak = j.consecutiveFailures ? `, ${j.consecutiveFailures} consecutive failures` : '';
      out.push(`  ${j.kind.padEnd(9)} ${j.job}: ${latest}${streak}; last success ${j.lastSuccess ?? 'never'}`);
      if (j.latest) out.push(`            ${j.latest.url}`);
      for (const p of j.pending) out.push(`            pending ${p.buildId} started ${p.started}${lostTrack(p)}`);
      if (j.promote) out.push(`            promotes ${j.promote.candidate}, current is ${j.promote.current}`);
      if (j.failingTests.length) out.push(`            ${describeTests(j.failingTests)}`);
    }
    const blockedSegments = g.timeline.filter((t) => t.blocked);
    out.push(`  last 14 days: ${blockedSegments.length ? blockedSegments.map((t) => `blocked ${t.from} .. ${t.to}`).join('; ') : 'never blocked'}`);
    out.push('');
  }
  if (s.releaseStreams.length) out.push('Release streams:');
  for (const r of s.releaseStreams) {
    out.push(`${r.rejectedInARow ? 'REJECTED' : 'ok      '} ${r.summary || streamSummary(r)}`);
    for (const rej of r.rejected) {
      if (rej.tag === r.latest?.tag) continue;
      const jobs = rej.failedBlockingJobs.map((j) => `${j.name}${j.run ? ` (${j.run.job} ${j.run.buildId})` : ''}`).join(', ');
      out.push(`    ${rej.phase.toLowerCase()} ${rej.tag}${jobs ? `: ${jobs}` : ''}`);
    }
  }
  out.push('', 'Summary:', s.summary);
  return `${out.join('\n')}\n`;
}

export const promotionCommand: Command = {
  usage: `Usage: buildcop promotion [--at ISO] [--json]

Gates come from the "promotion" configuration, payloads from "releaseController" (read by ingest).`,
  async run(argv) {
    const { values: v } = parse(argv, { at: { type: 'string' } } as const);
    const { at } = parsePromotionQuery({ at: v.at });
    const config = loadConfigIfPresent(v.config);
    const status = await promotionStatus(await openDatabase(v.db), config, { at });
    if (v.json) printJson(status);
    else process.stdout.write(renderPromotion(status));
    return 0;
  },
};
