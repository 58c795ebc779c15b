// causes and signature: the day's distinct problems, and one failure signature.
import { loadConfigIfPresent } from '../config';
import { causes, headline, parseCausesQuery } from '../answers/causes';
import { parseSignatureQuery, signatureDetail } from '../answers/signature';
import { openDatabase } from '../store/db';
import { parse, printJson, UsageError } from './args';
import type { Command } from './command';

export const causesCommand: Command = {
  usage: `Usage: buildcop causes [--window 24h|3d|7d|14d|30d|90d] [--at ISO] [--job REGEX] [--release 4.2] [--limit N] [--json]
A cause's verdict (regression, broken, flaky, fixed, failing) is judged over runs on the 14 days before --at.`,
  async run(argv) {
    const { values: v } = parse(argv, { window: { type: 'string' }, at: { type: 'string' }, job: { type: 'string' }, release: { type: 'string' }, limit: { type: 'string' } });
    const q = parseCausesQuery({ window: v.window, at: v.at, job: v.job, release: v.release, limit: v.limit });
    const result = await causes(await openDatabase(v.db), q, { ignoreTests: loadConfigIfPresent(v.config)?.ignoreTests });
    if (v.json) printJson(result);
    else {
      process.stdout.write(`Causes ${result.window} ${result.from} .. ${result.to}: ${result.causes.length} of ${result.totalCauses}${result.totalCauses > result.causes.length ? ' (--limit N for more)' : ''}\n`);
      for (const c of result.causes) {
        const kind = c.kind === 'signature' ? (c.mass ? 'mass failure' : 'signature') : `${c.kind} step`;
        process.stdout.write(`${String(c.runs).padStart(5)} runs ${String(c.tests).padStart(4)} tests  ${c.classification.padEnd(10)} ${kind.padEnd(12)} ${c.id}  ${headline(c.text)}\n`);
      }
    }
    return 0;
  },
};

export const signatureCommand: Command = {
  usage: 'Usage: buildcop signature ID [--window 7d] [--at ISO] [--json]',
  async run(argv) {
    const { values: v, positionals } = parse(argv, { window: { type: 'string' }, at: { type: 'string' } }, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one signature id');
    const d = await signatureDetail(await openDatabase(v.db), positionals[0], parseSignatureQuery({ window: v.window, at: v.at }), { ignoreTests: loadConfigIfPresent(v.config)?.ignoreTests });
    if (v.json) printJson(d);
    else {
      process.stdout.write(`signature ${d.id}: ${d.classification}: ${String(d.evidence.summary)}\n${d.runs} runs taken down, ${d.tests.length} tests (${d.from} .. ${d.to}); first seen ${d.firstSeen}\n\n${d.text}\n`);
      if (d.example) process.stdout.write(`\nexample (${d.example.job} ${d.example.buildId}, ${d.example.test}):\n${d.example.message}\n`);
      process.stdout.write('\n');
      for (const t of d.tests) process.stdout.write(`  ${String(t.runs).padStart(5)} runs  ${t.test}\n`);
      for (const b of d.bugs) process.stdout.write(`  bug ${b.tracker} ${b.id} [${b.status}] ${b.summary}\n`);
    }
    return 0;
  },
};
