// What every CLI command module exports: its help texts and what it runs.
export interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}
