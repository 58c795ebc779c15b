import { reportedProblems } from '../answers/ingestLog';
import { getStats } from '../answers/stats';
import { openDatabase } from '../store/db';
import { parse, printJson } from './args';
import type { Command } from './command';

export const statsCommand: Command = {
  usage: 'Usage: buildcop stats [--db URL] [--json]',
  async run(argv) {
    const { values } = parse(argv, {} as const);
    const stats = await getStats(await openDatabase(values.db));
    if (values.json) printJson(stats);
    else {
      const states = Object.entries(stats.runsByState).map(([s, n]) => `${n} ${s}`).join(', ');
      process.stdout.write(
        `${stats.runs} runs (${states || 'none'}), ${stats.pendingRuns} pending; ${stats.jobs} jobs; ${stats.tests} tests; ` +
          `${stats.testResults} test results (${stats.failures} failures, ${stats.flakes} flakes); ${stats.signatures} signatures; ` +
          `${stats.parseErrors} parse errors; last ingest ${stats.lastIngestAt ?? 'never'}` +
          `${stats.lastIngestWarnings ? ` (the latest pass ${reportedProblems(stats.lastIngestWarnings)}: buildcop ingest-log)` : ''}\n`,
      );
    }
    return 0;
  },
};
