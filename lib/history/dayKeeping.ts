// Whether this process keeps whole days in memory for the answers to come (lib/history/dayCache.ts).
// The server and the ingester do: a day read whole once serves every later answer. A CLI command
// gives one answer and exits: it reads only what that answer needs (lib/cli/main.ts says which).
let kept = true;

export const daysKept = (): boolean => kept;

export function setDaysKept(keep: boolean): void {
  kept = keep;
}
