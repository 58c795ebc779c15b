// Recomputes the automatic bug links from the stored bugs, tests and signatures, leaving what people
// did by hand alone. bug_link rows:
//   manual = 0            computed here (name-in-*, signature, and the tests of a signature linked by hand)
//   manual = 1, removed 0 linked by hand: a test (test_hash) or a signature (signature_hash, no test)
//   manual = 1, removed 1 unlinked by hand: suppresses that link for good. (bug, test, '') suppresses
//                         every link of the bug to the test; (bug, '', signature) the signature.
import type { AutoReason } from '../bugs/linking';
import { testsOfSignatures } from '../store/bugs';
import { insertMany } from '../store/bulk';
import type { Database } from '../store/db';
import { keepIndexes, linkIndexes, scanBugs } from './linkIndexes';

export interface RelinkResult {
  automatic: number;
  manual: number;
  removed: number;
  added: number;
  dropped: number;
  /** the indexes of the last relink in this process were brought up to date, not built again */
  indexesKept: boolean;
}

type Key = string;
const key = (bug: number, test: string, sig: string): Key => `${bug}\u0000${test}\u0000${sig}`;

/** The automatic links every bug should have now (before suppression by hand). */
async function desiredLinks(db: Database): Promise<{ links: Map<Key, { bug: number; test: string; sig: string; reason: string }>; indexesKept: boolean }> {
  // Without bugs there is nothing to link: skip indexing every test name and signature (each pass).
  if (!(await db.get<{ id: number }>('SELECT id FROM bug LIMIT 1'))) return { links: new Map(), indexesKept: false };
  const { indexes, kept } = await linkIndexes(db);
  const out = new Map<Key, { bug: number; test: string; sig: string; reason: string }>();
  const bySignature: { bug: number; sig: string; reason: string }[] = [];
  for (const [bug, found] of await scanBugs(db, indexes)) {
    for (const [t, reason] of found.names) out.set(key(bug, indexes.tests[t].hash, ''), { bug, test: indexes.tests[t].hash, sig: '', reason });
    for (const sig of indexes.quotes.signaturesOf(found.lines)) bySignature.push({ bug, sig, reason: 'signature' satisfies AutoReason });
  }
  // Signatures linked by hand reach their tests the same way.
  const manualSigs = await db.all<{ bug_pk: number; signature_hash: string }>(
    "SELECT bug_pk, signature_hash FROM bug_link WHERE manual = 1 AND removed = 0 AND test_hash = '' AND signature_hash <> ''",
  );
  for (const m of manualSigs) bySignature.push({ bug: m.bug_pk, sig: m.signature_hash, reason: 'manual' });
  const testsOf = await testsOfSignatures(db, [...new Set(bySignature.map((s) => s.sig))]);
  for (const { bug, sig, reason } of bySignature) {
    for (const test of testsOf.get(sig) ?? []) {
      const k = key(bug, test, sig);
      if (out.get(k)?.reason === 'manual') continue;
      out.set(k, { bug, test, sig, reason });
    }
  }
  keepIndexes(db, indexes);
  return { links: out, indexesKept: kept };
}

/** Brings the automatic links up to date; hand-made links and unlinks are kept as they are. */
export async function relinkBugs(db: Database, now = Math.floor(Date.now() / 1000)): Promise<RelinkResult> {
  const { links: desired, indexesKept } = await desiredLinks(db);
  return db.tx(async (sql) => {
    const existing = await sql.all<{ id: number; bug_pk: number; test_hash: string; signature_hash: string; reason: string; manual: number; removed: number }>(
      'SELECT id, bug_pk, test_hash, signature_hash, reason, manual, removed FROM bug_link',
    );
    const handMade = new Set<Key>();
    const suppressedTest = new Set<string>();
    const suppressedSig = new Set<string>();
    const computed = new Map<Key, { id: number; reason: string }>();
    const result: RelinkResult = { automatic: 0, manual: 0, removed: 0, added: 0, dropped: 0, indexesKept };
    for (const r of existing) {
      const k = key(r.bug_pk, r.test_hash, r.signature_hash);
      if (!r.manual) {
        computed.set(k, { id: r.id, reason: r.reason });
        continue;
      }
      handMade.add(k);
      if (r.removed) {
        result.removed++;
        if (r.test_hash) suppressedTest.add(`${r.bug_pk}\u0000${r.test_hash}`);
        else if (r.signature_hash) suppressedSig.add(`${r.bug_pk}\u0000${r.signature_hash}`);
      } else result.manual++;
    }
    const wanted = new Map<Key, { bug: number; test: string; sig: string; reason: string }>();
    for (const [k, d] of desired) {
      if (handMade.has(k) || suppressedTest.has(`${d.bug}\u0000${d.test}`) || (d.sig && suppressedSig.has(`${d.bug}\u0000${d.sig}`))) continue;
      wanted.set(k, d);
    }
    const drop: number[] = [];
    for (const [k, c] of computed) {
      const w = wanted.get(k);
      if (!w) drop.push(c.id);
      else if (w.reason !== c.reason) await sql.run('UPDATE bug_link SET reason = ? WHERE id = ? AND manual = 0', [w.reason, c.id]);
    }
    for (let i = 0; i < drop.length; i += 500) {
      const chunk = drop.slice(i, i + 500);
      await sql.run(`DELETE FROM bug_link WHERE manual = 0 AND id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    }
    const add = [...wanted].filter(([k]) => !computed.has(k)).map(([, w]) => [w.bug, w.test, w.sig, w.reason, 0, 0, now]);
    await insertMany(sql, 'bug_link', ['bug_pk', 'test_hash', 'signature_hash', 'reason', 'manual', 'removed', 'created_at'], add, 'ON CONFLICT DO NOTHING');
    result.automatic = wanted.size;
    result.added = add.length;
    result.dropped = drop.length;
    return result;
  });
}
