// Recomputes the automatic bug links from the stored bugs, tests and signatures, leaving what people
// did by hand alone. bug_link rows:
//   manual = 0            computed here (name-in-*, signature, and the tests of a signature linked by hand)
//   manual = 1, removed 0 linked by hand: a test (test_hash) or a signature (signature_hash, no test)
//   manual = 1, removed 1 unlinked by hand: suppresses that link for good. (bug, test, '') suppresses
//                         every link of the bug to the test; (bug, '', signature) the signature.
import { nameLinks, SignatureKeySelector, SignatureQuoteIndex, TestNameIndex, type AutoReason } from '../analysis/bugLinking';
import { splitComments } from '../sources/trackerBug';
import { testsOfSignatures } from '../store/bugs';
import { insertMany } from '../store/bulk';
import type { Database, Sql } from '../store/db';

const PAGE = 2000;

export interface RelinkResult {
  automatic: number;
  manual: number;
  removed: number;
  added: number;
  dropped: number;
}

type Key = string;
const key = (bug: number, test: string, sig: string): Key => `${bug}\u0000${test}\u0000${sig}`;

/** Signature texts page by page (a database may hold hundreds of thousands). */
async function* signaturePages(db: Sql): AsyncGenerator<{ id: number; hash: string; text: string }[]> {
  let after = 0;
  for (;;) {
    const rows = await db.all<{ id: number; hash: string; text: string }>('SELECT id, hash, text FROM signature WHERE id > ? ORDER BY id LIMIT ?', [after, PAGE]);
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1].id;
  }
}

/** The automatic links every bug should have now (before suppression by hand). */
async function desiredLinks(db: Database): Promise<Map<Key, { bug: number; test: string; sig: string; reason: string }>> {
  // Without bugs there is nothing to link: skip indexing every test name and signature (each pass).
  if (!(await db.get<{ id: number }>('SELECT id FROM bug LIMIT 1'))) return new Map();
  const tests = await db.all<{ hash: string; name: string }>('SELECT hash, name FROM test');
  const names = new TestNameIndex(tests.map((t) => t.name));
  const selector = new SignatureKeySelector(tests.map((t) => t.name));
  for await (const page of signaturePages(db)) for (const s of page) selector.count(s.text);
  const keyed: { key: string; lines: string[] }[] = [];
  for await (const page of signaturePages(db)) {
    for (const s of page) {
      const lines = selector.keys(s.text);
      if (lines.length) keyed.push({ key: s.hash, lines });
    }
  }
  const quotes = new SignatureQuoteIndex(keyed);

  const out = new Map<Key, { bug: number; test: string; sig: string; reason: string }>();
  const bySignature: { bug: number; sig: string; reason: string }[] = [];
  let after = 0;
  for (;;) {
    const bugs = await db.all<{ id: number; summary: string; description: string; comments: string }>(
      'SELECT id, summary, description, comments FROM bug WHERE id > ? ORDER BY id LIMIT ?',
      [after, 200],
    );
    if (!bugs.length) break;
    after = bugs[bugs.length - 1].id;
    for (const b of bugs) {
      const text = { summary: b.summary, description: b.description, comments: splitComments(b.comments) };
      for (const [t, reason] of nameLinks(names, text)) out.set(key(b.id, tests[t].hash, ''), { bug: b.id, test: tests[t].hash, sig: '', reason });
      for (const sig of quotes.find(text)) bySignature.push({ bug: b.id, sig, reason: 'signature' satisfies AutoReason });
    }
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
  return out;
}

/** Brings the automatic links up to date; hand-made links and unlinks are kept as they are. */
export async function relinkBugs(db: Database, now = Math.floor(Date.now() / 1000)): Promise<RelinkResult> {
  const desired = await desiredLinks(db);
  return db.tx(async (sql) => {
    const existing = await sql.all<{ id: number; bug_pk: number; test_hash: string; signature_hash: string; reason: string; manual: number; removed: number }>(
      'SELECT id, bug_pk, test_hash, signature_hash, reason, manual, removed FROM bug_link',
    );
    const handMade = new Set<Key>();
    const suppressedTest = new Set<string>();
    const suppressedSig = new Set<string>();
    const computed = new Map<Key, { id: number; reason: string }>();
    const result: RelinkResult = { automatic: 0, manual: 0, removed: 0, added: 0, dropped: 0 };
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
