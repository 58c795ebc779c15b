// The command table. Each command parses its options, calls lib/, and renders. A command's module
// (and with it the part of lib/ it needs) is loaded only when that command runs: loading every
// command's code made each invocation about 0.2-0.45 s slower.
import type { Command } from './command';

export interface CommandEntry {
  /** one line for `buildcop --help` (kept here: help then loads no command's code) */
  summary: string;
  load: () => Promise<Command>;
  /** writes much or serves for long (ingest, demo): the server's PostgreSQL pool, not one answer's (lib/store/poolSize.ts) */
  serverPool?: true;
  /** gives an answer read from the database it is given (--db, else the default) */
  reads?: true;
}

export const COMMANDS: Record<string, CommandEntry> = {
  ingest: { summary: 'fetch finished runs from Prow/GCS (and bugs, payloads) into the database', load: async () => (await import('./ingest')).ingestCommand, serverPool: true },
  stats: { summary: 'totals of what has been ingested, and when the last ingest ran', load: async () => (await import('./stats')).statsCommand, reads: true },
  hotlist: { summary: 'the tests failing most in a window, with verdicts, evidence, signatures and bugs', load: async () => (await import('./analysis')).hotlistCommand, reads: true },
  test: { summary: 'one test: verdict with evidence, history, signatures, failed and flaked runs', load: async () => (await import('./analysis')).testCommand, reads: true },
  causes: { summary: 'the causes of a window (failure signatures, install and setup failures), most runs taken down first', load: async () => (await import('./causes')).causesCommand, reads: true },
  signature: { summary: 'one failure signature: its text and an example, its tests, runs per day, jobs, bugs', load: async () => (await import('./causes')).signatureCommand, reads: true },
  replay: { summary: 'serve the bundled sample world in the real services\' URL shapes (Deck, GCS, trackers)', load: async () => (await import('./replay')).replayCommand },
  world: { summary: 'generate the sample world (deterministic) into a folder', load: async () => (await import('./replay')).worldCommand },
  promotion: { summary: 'promotion gates: blocked or not, by which jobs and failing tests; release payloads', load: async () => (await import('./promotion')).promotionCommand },
  jobs: { summary: 'all jobs with their pass rate in a window, worst first', load: async () => (await import('./browse')).jobsCommand, reads: true },
  job: { summary: 'one job: pass rate per day, recent runs, most failing tests, its grid of the latest runs', load: async () => (await import('./browse')).jobCommand, reads: true },
  run: { summary: 'one run: state, duration, refs, failed and flaked tests, links to its logs, parse errors', load: async () => (await import('./browse')).runCommand, reads: true },
  search: { summary: 'build logs, failure texts and bugs matching a regex (RE2), grouped by job and test, per day', load: async () => (await import('./browse')).searchCommand, reads: true },
  health: { summary: 'is the data fresh? ok, degraded, stale, never-ingested or unavailable (exit 1 unless ok)', load: async () => (await import('./browse')).healthCommand },
  'ingest-log': { summary: 'what ingest did and is waiting for: recent passes and their warnings, pending runs, parse errors', load: async () => (await import('./browse')).ingestLogCommand, reads: true },
  demo: { summary: 'the dashboard on the generated sample world: replay, ingest, build, serve (Ctrl-C stops)', load: async () => (await import('./demo')).demoCommand, serverPool: true },
  bugs: { summary: 'bugs from Bugzilla, Jira and GitHub and the tests they are linked to; link/unlink by hand', load: async () => (await import('./bugs')).bugsCommand },
  // MORE-COMMANDS
};
