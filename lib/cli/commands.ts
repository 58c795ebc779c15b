// The command table. Each command parses its options, calls lib/, and renders. A command's module
// (and with it the part of lib/ it needs) is loaded only when that command runs: loading every
// command's code made each invocation about 0.2-0.45 s slower.
import type { Command } from './command';

export const COMMANDS: Record<string, () => Promise<Command>> = {
  ingest: async () => (await import('./ingest')).ingestCommand,
  stats: async () => (await import('./stats')).statsCommand,
  hotlist: async () => (await import('./analysis')).hotlistCommand,
  test: async () => (await import('./analysis')).testCommand,
  causes: async () => (await import('./causes')).causesCommand,
  signature: async () => (await import('./causes')).signatureCommand,
  replay: async () => (await import('./replay')).replayCommand,
  world: async () => (await import('./replay')).worldCommand,
  promotion: async () => (await import('./promotion')).promotionCommand,
  jobs: async () => (await import('./browse')).jobsCommand,
  job: async () => (await import('./browse')).jobCommand,
  run: async () => (await import('./browse')).runCommand,
  search: async () => (await import('./browse')).searchCommand,
  health: async () => (await import('./browse')).healthCommand,
  'ingest-log': async () => (await import('./browse')).ingestLogCommand,
  demo: async () => (await import('./demo')).demoCommand,
  bugs: async () => (await import('./bugs')).bugsCommand,
  // MORE-COMMANDS
};
