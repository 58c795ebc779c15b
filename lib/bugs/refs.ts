// The bugs linked to tests, as hot-list items and test details show them.
import { isClosedStatus } from '../sources/trackerBug';
import { selectIn } from '../store/bulk';
import type { Database } from '../store/db';
import { reasonRank } from './linking';


export interface BugRef {
  tracker: string;
  id: string;
  url: string;
  status: string;
  summary: string;
  /** name-in-summary | name-in-description | name-in-comment | signature | manual (the strongest, when several) */
  reason: string;
  /** the signature hash, when the link comes from a failure signature */
  signature?: string;
  /** closed or verified, but the test failed after that */
  recurred?: boolean;
  closedAt?: string;
}

/** Linked bugs per test hash (removed links excluded). */
export async function bugsForTests(db: Database, testHashes: string[]): Promise<Map<string, BugRef[]>> {
  const out = new Map<string, BugRef[]>();
  if (!testHashes.length) return out;
  const rows = await selectIn<{ test_hash: string; tracker: string; bug_id: string; url: string; status: string; summary: string; reason: string; signature_hash: string; closed_at: number | null }>(
    db,
    (p) => `SELECT l.test_hash, b.tracker, b.bug_id, b.url, b.status, b.summary, l.reason, l.signature_hash, b.closed_at
            FROM bug_link l JOIN bug b ON b.id = l.bug_pk WHERE l.removed = 0 AND l.test_hash IN (${p})`,
    testHashes,
  );
  // one ref per bug and test, with the strongest reason (by hand, then summary, description, comment, signature)
  rows.sort((a, b) => (a.tracker < b.tracker ? -1 : a.tracker > b.tracker ? 1 : 0) || compareIds(a.bug_id, b.bug_id) || reasonRank(a.reason) - reasonRank(b.reason));
  for (const r of rows) {
    let list = out.get(r.test_hash);
    if (!list) out.set(r.test_hash, (list = []));
    if (list.some((b) => b.tracker === r.tracker && b.id === r.bug_id)) continue;
    const ref: BugRef = { tracker: r.tracker, id: r.bug_id, url: r.url, status: r.status, summary: r.summary, reason: r.reason };
    if (r.signature_hash) ref.signature = r.signature_hash;
    if (r.closed_at) ref.closedAt = new Date(r.closed_at * 1000).toISOString();
    list.push(ref);
  }
  return out;
}

/** bug ids in natural order: "1763002" before "1763010", "OCPBUGS-9" before "OCPBUGS-10" */
export function compareIds(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** Marks closed bugs of a test whose last failure came after the bug was closed. */
export function markRecurrence(bugs: BugRef[], lastFailure: number | null): BugRef[] {
  return bugs.map((b) => {
    const closed = b.closedAt ? Date.parse(b.closedAt) / 1000 : null;
    return closed !== null && isClosedStatus(b.status) && lastFailure !== null && lastFailure > closed ? { ...b, recurred: true } : b;
  });
}
