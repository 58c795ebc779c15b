// Where "new-cause" alerts come from. Causes (GET /api/causes, a lib function causes(); issue 20)
// do not exist yet: until they do, there are none to tell of. Wire the causes answer here, mapped
// to CauseLike (its stable id, title, runs taken down, page); nothing else in lib/alerts changes.
import type { Database } from '../store/db';
import type { CauseLike } from './events';

export type CauseSource = (db: Database, at: number) => Promise<CauseLike[]>;

/** The causes that stand at `at`, newest or not: an alert goes out for each one not told before. */
export const currentCauses: CauseSource = async () => [];
