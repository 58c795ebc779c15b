// A whole ingest pass: read Deck's list of runs, fetch and store the finished ones not stored yet (in
// start order, many downloads in flight, stored in batches), remember unfinished ones.
import { historyBounds, type Config } from '../config';
import type { ProwRun } from '../parse/types';
import { compileRegex } from '../patterns';
import { fetchDeckRuns } from '../sources/deck';
import { GcsClient } from '../sources/gcs';
import type { HttpClient } from '../sources/http';
import { Catalog } from '../store/catalog';
import { SearchBases } from '../store/searchIndex';
import type { Database } from '../store/db';
import { deckCoveredFrom, recordDeckCoverage } from '../store/backfillCursors';
import { pruneRunsBefore } from '../store/retention';
import { keepKnownRuns, knownRunsForPass, type KnownRun } from '../store/runs';
import { findBackfillRuns } from './backfill';
import { FINISHED_STATES } from './assemble';
import { refreshBugs } from './bugs';
import { backoffSeconds, listPending, markListed, recordPassEnd, recordPassStart, upsertPending, type PassSummary, type PendingRow } from './bookkeeping';
import { createProgress, type Progress } from './progress';
import { hasFinished, httpClientFor } from './run';
import { createRunReader, type AssembledRun } from './runReader';
import { storeBatch, type RunToStore, type StoredRun } from './storeBatch';
import { refreshReleases } from './releases';

export type { PassSummary } from './bookkeeping';

export interface PassOptions {
  config: Config;
  db: Database;
  progress?: Progress;
  /** the HTTP client for every source, run downloads included (else one from the configuration) */
  http?: HttpClient;
  /** runs fetched at once (each with its own downloads in flight); RUNS_IN_FLIGHT by default */
  runConcurrency?: number;
  /** more passes follow in this process (`ingest --interval`): a reader thread pays for its start */
  morePasses?: boolean;
  /** backfill this far back (a duration, `--since`), instead of the configuration's ingest.since */
  since?: string;
}

/**
 * Runs read at once. 16 rather than 8: with a reader thread, a run stays in flight until its answer
 * is back, and 8 left both threads waiting a third of the time (measured on 2 cores).
 */
export const RUNS_IN_FLIGHT = 16;

/** Bounds of one batch of runs stored together: runs, and milliseconds spent waiting for more. */
const BATCH_RUNS = 64;
const BATCH_MS = 200;

/** Whether p settles before the deadline (a performance.now() time). */
function settlesBy(p: Promise<unknown>, deadline: number): Promise<boolean> {
  const ms = deadline - performance.now();
  if (ms <= 0) return Promise.resolve(false);
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * Whether a stored run that missed a file is read again at `now`: 5 minutes after it was stored, then
 * after waits that double up to a day, at most 10 times (a file that stays unreadable is not fetched
 * every pass for ever).
 */
function dueForReread(k: KnownRun, now: number): boolean {
  return k.incomplete && k.readAttempts < 10 && now - k.ingestedAt >= backoffSeconds(k.readAttempts);
}

/** Not finished yet: Deck no longer lists it, and its folder has no finished.json. */
export const NOT_FINISHED = 'Deck no longer lists it and its folder has no finished.json yet';

const key = (job: string, buildId: string) => `${job}/${buildId}`;
const byStart = (a: ProwRun, b: ProwRun) => a.started - b.started || (a.job < b.job ? -1 : a.job > b.job ? 1 : 0) || (a.buildId < b.buildId ? -1 : a.buildId > b.buildId ? 1 : 0);

export async function ingestPass(opts: PassOptions): Promise<PassSummary> {
  const t0 = performance.now();
  const { config, db } = opts;
  const progress = opts.progress ?? createProgress(process.stderr, true);
  const http = opts.http ?? httpClientFor(config);
  const gcs = config.gcs ? new GcsClient(http, config.gcs.url) : undefined;
  const bounds = historyBounds(config, opts.since);
  const summary: PassSummary = { runsNew: 0, runsUpdated: 0, runsPending: 0, runsLost: 0, runsFailed: 0, runsNotStored: 0, runsBackfilled: 0, runsPruned: 0, testResults: 0, parseErrors: 0, seconds: 0, downloadedBytes: 0, source: '', parsedOn: '', kept: { knownRuns: false, catalog: false, signatureIndex: false, bugLinkIndexes: false }, warnings: [], status: 'ok', message: '' };
  const wireBytesBefore = http.stats.wireBytes;
  if (!gcs) summary.warnings.push('no "gcs" section in the configuration: runs are stored without test results');
  const passId = await recordPassStart(db);
  try {
    // What does not depend on Deck's listing is read while it downloads (on PostgreSQL, round trips
    // that otherwise came one after the other before the first run was fetched).
    const catalogRead = Catalog.forPass(db);
    const basesRead = SearchBases.forPass(db);
    const pendingRead = listPending(db);
    catalogRead.catch(() => undefined); // awaited below; not an unhandled rejection if Deck fails first
    basesRead.catch(() => undefined);
    pendingRead.catch(() => undefined);
    const deck = await fetchDeckRuns(http, config.prow.url);
    summary.source = deck.source;
    const now = Math.floor(Date.now() / 1000);
    // The present of the CI system: Deck's newest run (a replayed world lives in its own time), never
    // later than now. Retention and backfill count back from it.
    let [newest, oldest] = [0, Infinity];
    for (const r of deck.runs) if (r.started > 0) [newest, oldest] = [Math.max(newest, r.started), Math.min(oldest, r.started)];
    const present = newest ? Math.min(now, newest) : now;
    const keptFrom = present - bounds.retentionSeconds;
    summary.runsPruned = (await pruneRunsBefore(db, keptFrom)).runs;
    const jobFilter = config.prow.jobs ? compileRegex(config.prow.jobs, 'prow.jobs') : undefined;
    const fromDeck = (job: string) => !jobFilter || jobFilter.test(job);
    // runs older than the retention would be pruned by the next pass
    const listed = deck.runs.filter((r) => fromDeck(r.job) && (!r.started || r.started >= keptFrom));

    // What is new, what changed, what is still running.
    const minStarted = listed.reduce((m, r) => Math.min(m, r.started || m), now) - 86_400;
    const { runs: known, kept: knownKept } = await knownRunsForPass(db, minStarted);
    // (read before the pruning: those it deleted are left out)
    const pendingRows = (await pendingRead).filter((p) => !p.run.started || p.run.started >= keptFrom);
    const pendingByKey = new Map(pendingRows.map((p) => [key(p.run.job, p.run.buildId), p]));
    const work: { run: ProwRun; update: boolean; readAttempts?: number; listedByPass: number; pending?: PendingRow }[] = [];
    const listedKeys = new Set<string>();
    const unfinished: ProwRun[] = [];
    const waiting: ProwRun[] = [];
    for (const run of listed) {
      const k = key(run.job, run.buildId);
      listedKeys.add(k);
      if (!FINISHED_STATES.has(run.state)) {
        unfinished.push(run);
        continue;
      }
      const pending = pendingByKey.get(k);
      if (pending && pending.nextCheck > now) {
        waiting.push(run); // tried before and failed: it waits its turn
        continue;
      }
      const stored = known.get(k);
      if (!stored) work.push({ run, update: false, listedByPass: passId, pending });
      else if (stored.state !== run.state || dueForReread(stored, now)) work.push({ run, update: true, readAttempts: stored.readAttempts, listedByPass: passId, pending });
    }
    await upsertPending(db, unfinished.map((run) => ({ run, tried: { attempts: 0, error: '', listedByPass: passId } })), now);
    await markListed(db, waiting, now, passId);
    // Runs seen unfinished (or unreadable) earlier that Deck no longer lists, when their turn has
    // come: finished since? Checked all at once (a few may be hundreds after a Deck restart), then
    // less and less often while they stay unfinished.
    // (A build the backfill found is read again whole: its folder, not Deck, says whether it finished.)
    const due = pendingRows.filter((p) => !listedKeys.has(key(p.run.job, p.run.buildId)) && (fromDeck(p.run.job) || p.run.fromGcs) && p.nextCheck <= now);
    const readAgain = (p: PendingRow) => FINISHED_STATES.has(p.run.state) || p.run.fromGcs;
    for (const p of due) if (readAgain(p)) work.push({ run: p.run, update: false, listedByPass: 0, pending: p });
    const checks = await Promise.all(
      due
        .filter((p) => gcs && !readAgain(p))
        .map((p) => hasFinished(gcs!, p.run).then((finished) => ({ p, finished, error: NOT_FINISHED }), (e: Error) => ({ p, finished: false, error: e.message }))),
    );
    for (const { p } of checks.filter((c) => c.finished)) work.push({ run: { ...p.run, state: 'pending' }, update: false, listedByPass: 0, pending: p });
    const stillUnfinished = checks.filter((c) => !c.finished);
    await upsertPending(db, stillUnfinished.map(({ p, error }) => ({ run: p.run, tried: { attempts: p.attempts + 1, error, listedByPass: 0 } })), now);

    // History beyond Deck's window: the builds of the GCS job folders within reach that no pass has seen.
    const deckListedFrom = Math.min(oldest, present);
    const deckSource = `${config.prow.url} ${config.prow.jobs ?? ''}`;
    const deckFrom = await deckCoveredFrom(db, deckSource, deckListedFrom);
    let backfilled: { commit(): Promise<void> } | undefined;
    if (gcs && bounds.sinceSeconds !== undefined) {
      const cutoff = present - bounds.sinceSeconds;
      const known = new Set([...listedKeys, ...pendingByKey.keys()]);
      const found = await findBackfillRuns({ config, db, gcs, deckRuns: deck.runs, fromDeck, deckCoveredFrom: deckFrom, deckListedFrom, known, source: deckSource, cutoff, now: present, progress });
      for (const run of found.runs) work.push({ run, update: false, listedByPass: 0 });
      summary.warnings.push(...found.warnings);
      summary.backfill = { since: opts.since ?? config.ingest!.since!, from: new Date(cutoff * 1000).toISOString(), jobsListed: found.jobs, buildsFound: found.runs.length };
      backfilled = found;
    }
    work.sort((a, b) => byStart(a.run, b.run));

    progress.start(work.length);
    const { catalog, kept } = await catalogRead;
    const bases = await basesRead;
    const signatures = { digest: catalog.signatureDigest(), load: () => Catalog.storedSignatures(db) };
    const reader = await createRunReader({ config, signatures, http, morePasses: opts.morePasses });
    summary.parsedOn = reader.kind;
    summary.kept = { ...summary.kept, knownRuns: knownKept, catalog: kept, signatureIndex: reader.indexKept };
    // Runs are read (downloaded several at once, assembled in start order) and stored in start
    // order, so signature clustering (first text wins) is the same however a pass was interrupted,
    // and reading overlaps storing. Runs already read are stored together (lib/ingest/storeBatch.ts);
    // a batch waits for the next run only until its deadline, and never inside a transaction.
    const inFlight = Math.max(1, opts.runConcurrency ?? RUNS_IN_FLIGHT);
    const results: (Promise<AssembledRun | Error> | undefined)[] = [];
    const ready: boolean[] = [];
    let next = 0;
    const readAhead = (i: number) => {
      for (; next < work.length && next < i + inFlight; next++) {
        const k = next;
        results[k] = reader.read(work[k].run).then((r) => ((ready[k] = true), r));
      }
    };
    let notStoredBecause = '';
    const tally = (stored: StoredRun[]) => {
      for (const s of stored) {
        if (s.notStored !== undefined) {
          summary.runsNotStored++;
          notStoredBecause ||= s.notStored;
        }
        const label = `${s.run.job} ${s.run.buildId}`;
        if (s.outcome === 'failed') progress.log(`ingest: ${label}: ${s.message} (kept pending, tried again later)`);
        progress.tick(s.outcome === 'new' || s.outcome === 'updated' ? label : `${label} (${s.outcome})`);
        if (s.known) known.set(key(s.run.job, s.run.buildId), s.known);
        if (s.outcome === 'new') {
          summary.runsNew++;
          if (s.run.fromGcs) summary.runsBackfilled++;
        } else if (s.outcome === 'updated') summary.runsUpdated++;
        else if (s.outcome === 'failed') summary.runsFailed++;
        summary.testResults += s.testResults;
        summary.parseErrors += s.parseErrors;
      }
    };
    // A batch is stored while the next one is read (one store at a time, in order): on PostgreSQL a
    // store waits on round trips, and reading stopped for them (a pass took 1.02-1.10 s, now 0.85-0.90).
    let storing: Promise<void> = Promise.resolve();
    try {
      for (let i = 0; i < work.length; ) {
        readAhead(i);
        await results[i];
        const batch: RunToStore[] = [];
        const deadline = performance.now() + BATCH_MS;
        do {
          readAhead(i);
          const { run, update, readAttempts = 0, listedByPass, pending } = work[i];
          batch.push({ run, update, readAttempts, wasPending: !!pending, attempts: pending?.attempts ?? 0, listedByPass, read: await results[i]! });
          results[i++] = undefined;
        } while (i < work.length && batch.length < BATCH_RUNS && (ready[i] || (await settlesBy(results[i]!, deadline))));
        readAhead(i);
        await storing; // the previous batch's failure stops the pass here
        storing = storeBatch(db, catalog, batch, now, bases).then(tally);
        storing.catch(() => undefined); // awaited at the next batch: not an unhandled rejection meanwhile
      }
      await storing;
    } finally {
      await storing.catch(() => undefined);
      await reader.close();
    }
    progress.done();
    // Other sources refreshed by the same pass (each optional, none fatal to the rest):
    // SOURCE-REFRESH-HOOKS (bugs: lib/ingest/bugs.ts, payloads: lib/ingest/releases.ts)
    await refreshBugs({ config, db, http }).then(
      (r) => (progress.log(r.summary), summary.warnings.push(...r.warnings), (summary.kept.bugLinkIndexes = r.linkIndexesKept)),
      (e: Error) => summary.warnings.push(`bugs: ${e.message}`),
    );
    if (config.releaseController) {
      await refreshReleases({ config, db, http }).then(
        (r) => (progress.log(r.summary), summary.warnings.push(...r.warnings)),
        (e: Error) => summary.warnings.push(`releases: ${e.message}`),
      );
    }
    // the pending runs this pass's Deck listing did not have: Deck stopped listing them unfinished
    const counts = (await db.get<{ n: number; lost: number | null }>('SELECT COUNT(*) AS n, SUM(CASE WHEN listed_by_pass < ? THEN 1 ELSE 0 END) AS lost FROM pending_run', [passId]))!;
    summary.runsPending = Number(counts.n);
    summary.runsLost = Number(counts.lost ?? 0);
    summary.seconds = (performance.now() - t0) / 1000;
    summary.downloadedBytes = http.stats.wireBytes - wireBytesBefore;
    // what was listed and found is stored or pending now: later passes need not list it again (unless
    // the database refused runs: then they list it again, and nothing more is written to a full disk)
    if (!summary.runsNotStored) {
      await backfilled?.commit();
      await recordDeckCoverage(db, { source: deckSource, from: deckFrom, through: present });
    } else {
      summary.status = 'failed';
      summary.message = `${summary.runsNotStored} ${summary.runsNotStored === 1 ? 'run' : 'runs'} could not be stored: ${notStoredBecause}`;
    }
    await recordPassEnd(db, passId, summary, summary.status, summary.message);
    catalog.keep(db);
    await bases.keep(db);
    await keepKnownRuns(db, known, minStarted);
    return summary;
  } catch (e) {
    summary.seconds = (performance.now() - t0) / 1000;
    summary.downloadedBytes = http.stats.wireBytes - wireBytesBefore;
    await recordPassEnd(db, passId, summary, 'failed', (e as Error).message).catch(() => undefined);
    throw e;
  } finally {
    if (!opts.http) http.close();
  }
}

export function formatSummary(s: PassSummary): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `ingest: ${n(s.runsNew)} runs new, ${n(s.runsUpdated)} updated, ${n(s.runsPending)} pending` +
    (s.runsLost ? ` (${n(s.runsLost)} lost track of)` : '') +
    (s.runsFailed ? `, ${n(s.runsFailed)} failed (tried again later${s.runsNotStored ? `; ${n(s.runsNotStored)} not stored` : ''})` : '') +
    (s.backfill ? `; backfill since ${s.backfill.from}: ${n(s.backfill.jobsListed)} jobs listed, ${n(s.backfill.buildsFound)} builds found, ${n(s.runsBackfilled)} runs new` : '') +
    (s.runsPruned ? `; ${n(s.runsPruned)} runs pruned (retention)` : '') +
    `; ${n(s.testResults)} test results, ${n(s.parseErrors)} parse errors; ${(s.downloadedBytes / 1e6).toFixed(1)} MB downloaded; ${s.seconds.toFixed(1)} s`
  );
}
