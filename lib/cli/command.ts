// What every CLI command module exports: its help text and what it runs (its one-line summary is in commands.ts).
export interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}
