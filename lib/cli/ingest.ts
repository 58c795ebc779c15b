import { loadConfig } from '../config';
import { formatSummary, ingestPass } from '../ingest/pass';
import { createProgress } from '../ingest/progress';
import { openDatabase } from '../store/db';
import { parse, parseDuration, printJson, UsageError } from './args';
import type { Command } from './command';

export const ingestCommand: Command = {
  usage: `Usage: buildcop ingest [--config FILE] [--db URL] [--once | --interval 5m] [--quiet] [--json]

Reads <prow.url>/data.js (or /prowjobs.js), downloads each new finished run's artifacts from GCS
and stores its test results. After each pass, the configured "alerts" receivers are told of new
events (gate-blocked, stream-rejected, new-regression, new-cause), each once. --once (the default) runs one pass; --interval repeats passes.
Exit code 0 when the pass completed (even with recorded parse errors), 1 when the sources cannot
be read or the configuration is invalid.`,
  async run(argv) {
    const { values } = parse(argv, { once: { type: 'boolean' }, interval: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } } as const);
    if (values.once && values.interval) throw new UsageError('--once and --interval exclude each other');
    const interval = values.interval ? parseDuration(values.interval) : 0;
    const config = loadConfig(values.config);
    const db = await openDatabase(values.db);
    const progress = createProgress(process.stderr, !!values.quiet || !!values.json);
    for (;;) {
      try {
        const summary = await ingestPass({ config, db, progress, morePasses: interval > 0 });
        for (const w of summary.warnings) process.stderr.write(`ingest: warning: ${w}\n`);
        // alerts of what stands after the pass: a short deadline, never a failure of the pass (loaded
        // only when configured: it brings the answers' code)
        const alerting = config.alerts?.length ? await import('../alerts/afterPass') : undefined;
        const alerts = alerting ? await alerting.alertAfterPass({ config, db }) : undefined;
        if (values.json) printJson(alerts ? { ...summary, alerts } : summary);
        else process.stdout.write(`${formatSummary(summary)}\n${alerting && alerts ? `${alerting.formatAlertSummary(alerts)}\n` : ''}`);
      } catch (e) {
        if (!interval) throw Object.assign(e as Error, { expose: true });
        process.stderr.write(`ingest: pass failed: ${(e as Error).message}; next pass in ${values.interval}\n`);
      }
      if (!interval) return 0;
      await new Promise((r) => setTimeout(r, interval));
    }
  },
};
