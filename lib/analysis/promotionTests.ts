// The failing tests of the runs the promotion view shows, and their verdicts and bugs from the hot
// list (so a gate's blockers carry exactly the classification the hot list gives them).
import type { Database } from '../store/db';
import { selectIn } from '../store/bulk';
import { bugsForTests, type BugRef } from './bugRefs';
import { ignoreMatcher, INSTALL_OR_SETUP_TEST } from '../parse/variants';
import { hotlist } from './hotlist';
import { escapeRegex } from './windowData';
import type { Classification } from './verdict';

export interface RawFailingTest {
  test: string;
  /** test hash; null for an install failure known only from the build log */
  id: string | null;
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
  const rows = await selectIn<{ run_id: number; name: string; hash: string; started: number }>(
    db,
    (p) => `SELECT o.run_id, t.name, t.hash, o.started FROM test_outcome o JOIN test t ON t.id = o.test_id
            WHERE o.outcome = 1 AND o.run_id IN (${p}) ORDER BY o.run_id, t.name`,
    runIds,
  );
  for (const id of runIds) out.set(id, []);
  for (const r of rows) {
    if (ignored(r.name)) continue;
    out.get(r.run_id)!.push({ test: r.name, id: r.hash, runStarted: r.started });
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


/** The 7-day hot list's verdict and bugs for each test, at `at` (or at the test's own run when older). */
export async function attachVerdicts(db: Database, at: number, tests: RawFailingTest[]): Promise<Map<string, { classification: Classification; bugs: BugRef[] }>> {
  const out = new Map<string, { classification: Classification; bugs: BugRef[] }>();
  const withId = tests.filter((t): t is RawFailingTest & { id: string } => !!t.id);
  const ask = async (when: number, list: { test: string; id: string }[]) => {
    const names = [...new Set(list.map((t) => t.test))];
    if (!names.length) return;
    const pattern = `^(?:${names.map(escapeRegex).join('|')})$`;
    const hot = await hotlist(db, { window: '7d', at: when, test: pattern, limit: 10_000 }, { ignoreTests: [] });
    for (const item of hot.items) if (!out.has(item.id)) out.set(item.id, { classification: item.classification, bugs: item.bugs });
  };
  await ask(at, withId);
  // A test whose failing run is older than the window: judge it at that run instead.
  const byRun = new Map<number, RawFailingTest[]>();
  for (const t of withId) {
    if (out.has(t.id) || t.runStarted > at) continue;
    byRun.set(t.runStarted, [...(byRun.get(t.runStarted) ?? []), t]);
  }
  for (const [started, list] of [...byRun].slice(0, 10)) await ask(started + 1, list as { test: string; id: string }[]);
  const missing = withId.filter((t) => !out.has(t.id)).map((t) => t.id);
  if (missing.length) {
    const bugs = await bugsForTests(db, missing);
    for (const id of missing) out.set(id, { classification: 'failing', bugs: bugs.get(id) ?? [] });
  }
  return out;
}
