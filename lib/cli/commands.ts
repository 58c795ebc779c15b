// The command table. Each command parses its options, calls lib/, and renders.
import { hotlistCommand, testCommand } from './analysis';
import { bugsCommand } from './bugs';
import { ingestCommand } from './ingest';
import { promotionCommand } from './promotion';
import { replayCommand, worldCommand } from './replay';
import { statsCommand } from './stats';

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
  bugs: bugsCommand,
  // MORE-COMMANDS
};
