// The failing tests of the runs the promotion view shows.
import type { Database } from '../store/db';
import { selectIn } from '../store/bulk';
import { ignoreMatcher, INSTALL_OR_SETUP_TEST } from '../parse/variants';

export interface RawFailingTest {
  test: string;
  /** test hash; null for an install failure known only from the build log */
  id: string | null;
  /** the test's row id, with `id` */
  testId?: number;
  /** when the run started (Unix seconds): verdicts are taken at this run if the window has moved on */
  runStarted: number;
}

/**
 * Failed (not flaked) tests per run. Wrapper steps the configuration ignores are left out, except
 * install and setup steps; an install failure only the build log reported becomes one entry.
 */
export async function failingTestsOfRuns(db: Database, runIds: number[], ignoreTests: string[] | undefined): Promise<Map<number, RawFailingTest[]>> {
  const out = new Map<number, RawFailingTest[]>();
  if (!runIds.length) return out;
  const ignored = ignoreMatcher(ignoreTests);
  const rows = await selectIn<{ run_id: number; test_id: number; name: string; hash: string; started: number }>(
    db,
    (p) => `SELECT o.run_id, o.test_id, t.name, t.hash, o.started FROM test_outcome o JOIN test t ON t.id = o.test_id
            WHERE o.outcome = 1 AND o.run_id IN (${p}) ORDER BY o.run_id, t.name`,
    runIds,
  );
  for (const id of runIds) out.set(id, []);
  for (const r of rows) {
    if (ignored(r.name)) continue;
    out.get(r.run_id)!.push({ test: r.name, id: r.hash, testId: r.test_id, runStarted: r.started });
  }
  const installs = await selectIn<{ id: number; started: number; meta: string }>(
    db,
    (p) => `SELECT id, started, meta FROM run WHERE install_failed = 1 AND id IN (${p})`,
    runIds,
  );
  for (const r of installs) {
    const list = out.get(r.id)!;
    if (list.some((t) => INSTALL_OR_SETUP_TEST.test(t.test))) continue;
    let failure: { steps?: unknown; message?: unknown } | undefined;
    try {
      failure = (JSON.parse(r.meta) as { installFailure?: typeof failure }).installFailure;
    } catch {
      failure = undefined;
    }
    const message = typeof failure?.message === 'string' ? `: ${failure.message.split('\n')[0].slice(0, 300)}` : '';
    list.unshift({ test: `install failed (from the build log)${message}`, id: null, runStarted: r.started });
  }
  return out;
}
