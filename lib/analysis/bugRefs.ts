// The bugs linked to tests, as hot-list items and test details show them.
import type { Database } from '../store/db';
import { selectIn } from '../store/bulk';

export interface BugRef {
  tracker: string;
  id: string;
  url: string;
  status: string;
  summary: string;
  reason: string;
  /** closed or verified, but the test failed after that */
  recurred?: boolean;
  closedAt?: string;
}

const CLOSED = /^(closed|verified|resolved|done|release pending|errata)$/i;

export function isClosedStatus(status: string): boolean {
  return CLOSED.test(status.trim());
}

/** Linked bugs per test hash (removed links excluded). */
export async function bugsForTests(db: Database, testHashes: string[]): Promise<Map<string, BugRef[]>> {
  const out = new Map<string, BugRef[]>();
  if (!testHashes.length) return out;
  const rows = await selectIn<{ test_hash: string; tracker: string; bug_id: string; url: string; status: string; summary: string; reason: string; closed_at: number | null }>(
    db,
    (p) => `SELECT l.test_hash, b.tracker, b.bug_id, b.url, b.status, b.summary, l.reason, b.closed_at
            FROM bug_link l JOIN bug b ON b.id = l.bug_pk WHERE l.removed = 0 AND l.test_hash IN (${p})
            ORDER BY b.tracker, b.bug_id`,
    testHashes,
  );
  for (const r of rows) {
    let list = out.get(r.test_hash);
    if (!list) out.set(r.test_hash, (list = []));
    if (list.some((b) => b.tracker === r.tracker && b.id === r.bug_id)) continue;
    const ref: BugRef = { tracker: r.tracker, id: r.bug_id, url: r.url, status: r.status, summary: r.summary, reason: r.reason };
    if (r.closed_at) ref.closedAt = new Date(r.closed_at * 1000).toISOString();
    list.push(ref);
  }
  return out;
}

/** Marks closed bugs of a test whose last failure came after the bug was closed. */
export function markRecurrence(bugs: BugRef[], lastFailure: number | null): BugRef[] {
  return bugs.map((b) => {
    const closed = b.closedAt ? Date.parse(b.closedAt) / 1000 : null;
    return closed !== null && isClosedStatus(b.status) && lastFailure !== null && lastFailure > closed ? { ...b, recurred: true } : b;
  });
}
