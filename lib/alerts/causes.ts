// Where "new-cause" alerts come from: the causes of the last day (lib/answers/causes.ts) that were
// first seen in that day and took down at least a few runs; each is told of once.
import { causes, headline } from '../answers/causes';
import type { Database } from '../store/db';
import type { CauseLike } from './events';

export type CauseSource = (db: Database, at: number, ignoreTests?: string[]) => Promise<CauseLike[]>;

/** Runs a new cause must have taken down before it is worth a message. */
export const NEW_CAUSE_MIN_RUNS = 3;

/** The causes new at `at`: first seen in the last 24 hours, with NEW_CAUSE_MIN_RUNS or more runs taken down. */
export const currentCauses: CauseSource = async (db, at, ignoreTests) => {
  const day = await causes(db, { window: '24h', at, limit: 20 }, { ignoreTests });
  return day.causes
    .filter((c) => c.runs >= NEW_CAUSE_MIN_RUNS && Date.parse(c.firstSeen) / 1000 >= at - 86_400)
    .map((c) => ({ id: c.id, title: headline(c.text), runs: c.runs, summary: `${c.classification}: ${String(c.evidence.summary ?? '')}`, url: `/signatures/${c.id}` }));
};
