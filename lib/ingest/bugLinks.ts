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
  /** the indexes of the last relink in this process were brought up to date, not built again */
  indexesKept: boolean;
}

type Key = string;
const key = (bug: number, test: string, sig: string): Key => `${bug}\u0000${test}\u0000${sig}`;

/** Signature texts page by page (a database may hold hundreds of thousands), those after id `after`. */
async function* signaturePages(db: Sql, after = 0): AsyncGenerator<{ id: number; hash: string; text: string }[]> {
  for (;;) {
    const rows = await db.all<{ id: number; hash: string; text: string }>('SELECT id, hash, text FROM signature WHERE id > ? ORDER BY id LIMIT ?', [after, PAGE]);
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1].id;
  }
}

/** What bug texts are searched with: the test names, and the key lines of the signatures read. */
interface LinkIndexes {
  tests: { hash: string; name: string }[];
  names: TestNameIndex;
  selector: SignatureKeySelector;
  quotes: SignatureQuoteIndex<string>;
  /** the newest test and signature read */
  newestTest: { id: number; hash: string };
  newestSignature: { id: number; hash: string };
}

const idAndHash = (row: { id: number; hash: string } | undefined) => ({ id: row?.id ?? 0, hash: row?.hash ?? '' });

/** Whether the table holds exactly `count` rows, the newest being `newest`: then, rows never being deleted, the ones read. */
async function holdsJust(db: Sql, table: 'test' | 'signature', count: number, newest: { id: number; hash: string }): Promise<boolean> {
  const [[n, id, hash]] = await db.rows(`SELECT (SELECT COUNT(*) FROM ${table}), (SELECT MAX(id) FROM ${table}), (SELECT hash FROM ${table} ORDER BY id DESC LIMIT 1)`);
  return Number(n) === count && (count === 0 || (Number(id) === newest.id && hash === newest.hash));
}

/**
 * The indexes of the last relink on this database object, kept for the next one (see linkIndexes).
 * At 30,000 tests and 50,000 signatures building them took 5-6 s, every pass.
 */
const keptIndexes = new WeakMap<Database, LinkIndexes>();

/**
 * The indexes for a relink: those of the last one on this database object brought up to date, else
 * built from every test and signature. Tests and signatures added since are read and indexed; a new
 * test name also has the signatures whose text holds it find their candidate lines again. Kept ones
 * serve while the rows read are all there are: rows are never deleted from either table, so equal
 * counts mean equal contents; the newest row is compared too (a database emptied and filled again).
 */
async function linkIndexes(db: Database): Promise<{ indexes: LinkIndexes; kept: boolean }> {
  let k = keptIndexes.get(db);
  keptIndexes.delete(db);
  if (k && !(await addTests(db, k))) k = undefined;
  const kept = !!k;
  if (!k) {
    const rows = await db.all<{ id: number; hash: string; name: string }>('SELECT id, hash, name FROM test ORDER BY id');
    const tests = rows.map(({ hash, name }) => ({ hash, name }));
    const names = tests.map((t) => t.name);
    k = { tests, names: new TestNameIndex(names, true), selector: new SignatureKeySelector(names), quotes: new SignatureQuoteIndex([]), newestTest: idAndHash(rows.at(-1)), newestSignature: { id: 0, hash: '' } };
  }
  await addSignatures(db, k);
  if (!(await holdsJust(db, 'signature', k.selector.size, k.newestSignature))) {
    // rows another writer committed under lower ids, or a database filled again: all of them anew
    k.selector = new SignatureKeySelector(k.tests.map((t) => t.name));
    k.newestSignature = { id: 0, hash: '' };
    await addSignatures(db, k);
  }
  k.quotes.setKeys(k.selector.keyed());
  return { indexes: k, kept };
}

/** Reads the tests added since into the kept indexes; false when those are not all the tests. */
async function addTests(db: Database, k: LinkIndexes): Promise<boolean> {
  const added = await db.all<{ id: number; hash: string; name: string }>('SELECT id, hash, name FROM test WHERE id > ? ORDER BY id', [k.newestTest.id]);
  if (added.length) {
    const names = added.map((t) => t.name);
    for (const { hash, name } of added) k.tests.push({ hash, name });
    k.newestTest = idAndHash(added.at(-1));
    k.names.add(names);
    const holdsNew = k.selector.addTestNames(names);
    for await (const page of signaturePages(db)) for (const s of page) if (k.selector.has(s.hash) && holdsNew(s.text)) k.selector.again(s.hash, s.text);
  }
  return holdsJust(db, 'test', k.tests.length, k.newestTest);
}

/** Reads the signatures added since into the indexes. */
async function addSignatures(db: Database, k: LinkIndexes): Promise<void> {
  for await (const page of signaturePages(db, k.newestSignature.id)) {
    for (const s of page) k.selector.add(s.hash, s.text);
    k.newestSignature = idAndHash(page.at(-1));
  }
}

/** The automatic links every bug should have now (before suppression by hand). */
async function desiredLinks(db: Database): Promise<{ links: Map<Key, { bug: number; test: string; sig: string; reason: string }>; indexesKept: boolean }> {
  // Without bugs there is nothing to link: skip indexing every test name and signature (each pass).
  if (!(await db.get<{ id: number }>('SELECT id FROM bug LIMIT 1'))) return { links: new Map(), indexesKept: false };
  const { indexes, kept } = await linkIndexes(db);
  const { tests, names, quotes } = indexes;

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
  keptIndexes.set(db, indexes);
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
