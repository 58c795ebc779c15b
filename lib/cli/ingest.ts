import { historyBounds, loadConfig } from '../config';
import { formatStandingSummary, refreshStandingAnswers } from '../answers/standing';
import { ingesterLock } from '../ingest/activeIngester';
import { formatSummary, ingestPass } from '../ingest/pass';
import { createProgress } from '../ingest/progress';
import { databaseUrl, openDatabase } from '../store/db';
import { formatReadIndexes, updateReadIndexes } from '../store/readIndexes';
import { parse, parseDuration, printJson, UsageError } from './args';
import type { Command } from './command';

export const ingestCommand: Command = {
  usage: `Usage: buildcop ingest [--config FILE] [--db URL] [--once | --interval 5m] [--since 90d] [--quiet] [--json]

Reads <prow.url>/data.js (or /prowjobs.js), downloads each new finished run's artifacts from GCS
and stores its test results. --once (the default) runs one pass; --interval repeats passes. On
PostgreSQL one --interval ingester is active per database (an advisory lock): another one started
waits as a standby, says so, and takes over when the active one dies.
--since (else the configuration's ingest.since) also backfills the builds of the GCS job folders
started that long before Deck's newest run (periodic and postsubmit builds under logs/<job>/,
presubmits through pr-logs/directory/<job>/); at most "retention" (default 90d), which each pass
prunes runs beyond. After each pass, the configured "alerts" receivers are told of new events
(gate-blocked, stream-rejected, new-regression, new-cause), each once, the days over are packed for
the answers that read them (the newest first, at most 20 s a pass), and the standing answers
(the hot list and causes of each window tab, for now) are computed again where the data changed,
so the dashboard serves them at once.
Exit code 0 when the pass completed (even with recorded parse errors), 1 when the sources cannot
be read, the database refused runs (a full disk, say: the pass is recorded as failed) or the
configuration is invalid.`,
  async run(argv) {
    const { values } = parse(argv, { once: { type: 'boolean' }, interval: { type: 'string' }, since: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } } as const);
    if (values.once && values.interval) throw new UsageError('--once and --interval exclude each other');
    const interval = values.interval ? parseDuration(values.interval) : 0;
    if (values.since !== undefined) parseDuration(values.since);
    const config = loadConfig(values.config);
    historyBounds(config, values.since); // a --since beyond the retention is refused before any pass
    // DATABASE_URL itself, never a read replica (DATABASE_READ_URL): ingest reads back what it wrote
    const db = await openDatabase(databaseUrl(values.db));
    const progress = createProgress(process.stderr, !!values.quiet || !!values.json);
    // on PostgreSQL one --interval ingester is active at a time; others wait as standbys
    const lock = interval && db.dialect === 'postgres' ? ingesterLock(db.url, (line) => process.stderr.write(`${line}\n`)) : undefined;
    for (;;) {
      await lock?.hold();
      try {
        const summary = await ingestPass({ config, db, progress, morePasses: interval > 0, since: values.since });
        for (const w of summary.warnings) process.stderr.write(`ingest: warning: ${w}\n`);
        // alerts of what stands after the pass: a short deadline, never a failure of the pass (loaded
        // only when configured: it brings the answers' code)
        const alerting = config.alerts?.length ? await import('../alerts/afterPass') : undefined;
        const alerts = alerting ? await alerting.alertAfterPass({ config, db }) : undefined;
        // the test sets new since, indexed, and the days over, packed, for the answers that read them
        // (never a failure of the pass), then the answers for now a buildcop opens first, ready before
        // anyone asks
        const readIndexes = await updateReadIndexes(db);
        const standingAnswers = await refreshStandingAnswers(db, config.ignoreTests, Date.now(), config.ingest?.standingReleases);
        if (values.json) printJson({ ...summary, ...(alerts ? { alerts } : {}), ...readIndexes, standingAnswers });
        else process.stdout.write(`${formatSummary(summary)}\n${alerting && alerts ? `${alerting.formatAlertSummary(alerts)}\n` : ''}`);
        for (const line of formatReadIndexes(readIndexes, !!values.quiet || !!values.json)) process.stderr.write(`ingest: ${line}\n`);
        if ((!values.quiet && !values.json) || standingAnswers.errors.length) process.stderr.write(`ingest: ${formatStandingSummary(standingAnswers)}\n`);
        if (summary.status !== 'ok') {
          process.stderr.write(`ingest: pass failed: ${summary.message}${interval ? `; next pass in ${values.interval}` : ''}\n`);
          if (!interval) return 1;
        }
      } catch (e) {
        if (!interval) throw Object.assign(e as Error, { expose: true });
        process.stderr.write(`ingest: pass failed: ${(e as Error).message}; next pass in ${values.interval}\n`);
      }
      if (!interval) return 0;
      await new Promise((r) => setTimeout(r, interval));
    }
  },
};
