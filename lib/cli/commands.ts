// The command table. Each command parses its options, calls lib/, and renders.
import { hotlistCommand, testCommand } from './analysis';
import { bugsCommand } from './bugs';
import { ingestCommand } from './ingest';
import { promotionCommand } from './promotion';
import { replayCommand, worldCommand } from './replay';
import { statsCommand } from './stats';
import { healthCommand, jobCommand, jobsCommand, runCommand, searchCommand } from './browse';
import { demoCommand } from './demo';

export interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

export const COMMANDS: Record<string, Command> = {
  ingest: ingestCommand,
  stats: statsCommand,
  hotlist: hotlistCommand,
  test: testCommand,
  replay: replayCommand,
  world: worldCommand,
  promotion: promotionCommand,
  jobs: jobsCommand,
  job: jobCommand,
  run: runCommand,
  search: searchCommand,
  health: healthCommand,
  demo: demoCommand,
  bugs: bugsCommand,
  // MORE-COMMANDS
};
