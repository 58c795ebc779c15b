// What bug linking searches bug texts with (the test names, the signatures' key lines) and what it
// found in each bug, kept from one relink to the next on the same database object (the passes of
// `ingest --interval`) and brought up to date instead of built again. At 30,000 tests, 50,000
// signatures and 5,000 bugs (78 MB of text), building and searching everything took 10-15 s a pass.
import { nameLinks, quotablePieces, SignatureKeySelector, SignatureQuoteIndex, TestNameIndex, type AutoReason, type BugText } from '../bugs/linking';
import { holdsHash, letterRunHashes, quoteRunKey } from '../bugs/letterRuns';
import { splitComments } from '../sources/trackerBug';
import { selectIn } from '../store/bulk';
import { holdsJust, KeptPerDatabase, tableStates } from '../store/keptBetweenPasses';
import type { Database, Sql } from '../store/db';

const PAGE = 2000;


/** What a bug's texts hold. */
export interface BugFound {
  /** tests named, by index in LinkIndexes.tests, with the strongest reason */
  names: Map<number, AutoReason>;
  /** key lines quoted, by number in the quote index */
  lines: number[];
}

interface ScannedBug extends BugFound {
  /** the stored bug's version (see STAMP) */
  stamp: string;
  /** its texts, as quotes are searched for in them, reduced to letterRunHashes (a tenth of their size) */
  runs: Int32Array;
}

/** What bug texts are searched with, and what was found in each bug. */
export interface LinkIndexes {
  tests: { hash: string; name: string }[];
  names: TestNameIndex;
  selector: SignatureKeySelector;
  quotes: SignatureQuoteIndex<string>;
  /** the newest test and signature read */
  newestTest: { id: number; hash: string };
  newestSignature: { id: number; hash: string };
  bugs: Map<number, ScannedBug>;
  /** the tests and key lines the bugs were searched for (the first this many) */
  bugsSearchedFor: { tests: number; lines: number };
}

/** Signature texts page by page (a database may hold hundreds of thousands), those after id `after`. */
async function* signaturePages(db: Sql, after = 0): AsyncGenerator<{ id: number; hash: string; text: string }[]> {
  for (;;) {
    const rows = await db.all<{ id: number; hash: string; text: string }>('SELECT id, hash, text FROM signature WHERE id > ? ORDER BY id LIMIT ?', [after, PAGE]);
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1].id;
  }
}

const idAndHash = (row: { id: number; hash: string } | undefined) => ({ id: row?.id ?? 0, hash: row?.hash ?? '' });

/** Whether the table holds exactly the `count` rows read, the newest being `newest` (see holdsJust). */
async function holdsRead(db: Sql, table: 'test' | 'signature', count: number, newest: { id: number; hash: string }): Promise<boolean> {
  const [state] = await tableStates(db, [[table, 'hash']]);
  return holdsJust(state, count, [newest.hash, newest.id]);
}

const keptIndexes = new KeptPerDatabase<LinkIndexes>();

/** Keeps the indexes for the next relink on this database object (once this one has used them). */
export function keepIndexes(db: Database, indexes: LinkIndexes): void {
  keptIndexes.keep(db, indexes);
}

/**
 * The indexes for a relink: those of the last one on this database object brought up to date, else
 * built from every test and signature. Tests and signatures added since are read and indexed; a new
 * test name also has the signatures whose text holds it find their candidate lines again. Kept ones
 * serve while the rows read are all there are (see holdsJust).
 */
export async function linkIndexes(db: Database): Promise<{ indexes: LinkIndexes; kept: boolean }> {
  let k = keptIndexes.take(db);
  if (k && !(await addTests(db, k))) k = undefined;
  const kept = !!k;
  if (!k) {
    const rows = await db.all<{ id: number; hash: string; name: string }>('SELECT id, hash, name FROM test ORDER BY id');
    const tests = rows.map(({ hash, name }) => ({ hash, name }));
    const names = tests.map((t) => t.name);
    k = {
      tests, names: new TestNameIndex(names, true), selector: new SignatureKeySelector(names), quotes: new SignatureQuoteIndex([]),
      newestTest: idAndHash(rows.at(-1)), newestSignature: idAndHash(undefined), bugs: new Map(), bugsSearchedFor: { tests: 0, lines: 0 },
    };
  }
  await addSignatures(db, k);
  if (!(await holdsRead(db, 'signature', k.selector.size, k.newestSignature))) {
    // rows another writer committed under lower ids, or a database filled again: all of them anew
    k.selector = new SignatureKeySelector(k.tests.map((t) => t.name));
    k.newestSignature = idAndHash(undefined);
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
  return holdsRead(db, 'test', k.tests.length, k.newestTest);
}

/** Reads the signatures added since into the indexes. */
async function addSignatures(db: Database, k: LinkIndexes): Promise<void> {
  for await (const page of signaturePages(db, k.newestSignature.id)) {
    for (const s of page) k.selector.add(s.hash, s.text);
    k.newestSignature = idAndHash(page.at(-1));
  }
}

/**
 * A stored bug's version: an update sets when it was fetched, and its texts come with it (their
 * sizes too, against two fetches in one second). octet_length, not length: PostgreSQL gives it
 * without inflating the texts (length took 0.2 s a pass for 5,000 bugs), SQLite from the record.
 */
const STAMP = `CAST(fetched_at AS TEXT) || ' ' || COALESCE(CAST(last_change AS TEXT), '') || ' ' || CAST(octet_length(summary) AS TEXT) || ' ' || CAST(octet_length(description) AS TEXT) || ' ' || CAST(octet_length(comments) AS TEXT)`;

/**
 * What each stored bug's texts hold, by bug id. A bug searched before and unchanged since is only
 * searched for the key lines numbered since, and only read again (and normalised) when it may quote
 * one of them (see quoteRunKey); and, when tests were added, for their names when its text holds one
 * of them (a longer name can make a shorter one's occurrence not count, so all names are searched
 * again then). Every other bug is read and searched for everything.
 */
export async function scanBugs(db: Database, k: LinkIndexes): Promise<Map<number, BugFound>> {
  const stamps = await db.all<{ id: number; stamp: string }>(`SELECT id, ${STAMP} AS stamp FROM bug ORDER BY id`);
  const stored = new Set(stamps.map((b) => b.id));
  for (const id of k.bugs.keys()) if (!stored.has(id)) k.bugs.delete(id);
  // (none kept: every bug is read and searched for everything)
  const newTests = k.bugs.size ? k.tests.slice(k.bugsSearchedFor.tests).map((t) => t.name) : [];
  // a text without the longest run of letters of any new name holds none (canonical text keeps runs of letters)
  const nameRuns = newTests.map((n) => (n.match(/[A-Za-z]+/g) ?? ['']).reduce((a, b) => (b.length > a.length ? b : a)));
  const lineKeys = k.quotes.linesFrom(k.bugsSearchedFor.lines).map(quoteRunKey);
  const mayQuoteNew = (b: ScannedBug) => lineKeys.some((h) => h === undefined || holdsHash(b.runs, h));
  const toRead: number[] = [];
  for (const { id, stamp } of stamps) {
    const b = k.bugs.get(id);
    if (!b || b.stamp !== stamp || newTests.length || mayQuoteNew(b)) toRead.push(id);
  }
  const newLines = k.quotes.linesFinder(k.bugsSearchedFor.lines);
  const allLines = k.quotes.linesFinder();
  for (let i = 0; i < toRead.length; i += 200) {
    const rows = await selectIn<{ id: number; stamp: string; summary: string; description: string; comments: string }>(
      db, (p) => `SELECT id, ${STAMP} AS stamp, summary, description, comments FROM bug WHERE id IN (${p})`, toRead.slice(i, i + 200),
    );
    for (const r of rows) {
      const text: BugText = { summary: r.summary, description: r.description, comments: splitComments(r.comments) };
      const b = k.bugs.get(r.id);
      if (!b || b.stamp !== r.stamp) {
        const pieces = quotablePieces(text);
        k.bugs.set(r.id, { stamp: r.stamp, runs: letterRunHashes(pieces), names: nameLinks(k.names, text), lines: allLines(pieces) });
        continue;
      }
      if (nameRuns.some((run) => r.summary.includes(run) || r.description.includes(run) || r.comments.includes(run))) b.names = nameLinks(k.names, text);
      if (mayQuoteNew(b)) b.lines.push(...newLines(quotablePieces(text)));
    }
  }
  k.bugsSearchedFor = { tests: k.tests.length, lines: k.quotes.size };
  return k.bugs;
}
