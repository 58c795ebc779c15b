// Writing the search index (lib/search/README.md): a run's logs (compressed) and its documents, in
// the transaction that stores the run, and each job's base documents, kept between passes.
//
// Runs of a job share most of their grams (the same steps, tests and messages, times and ids aside):
// a build log of the sample world has 4,700, of which a few dozen are new. Each (job, kind) has base
// documents holding the grams most of its runs have; a run's own document holds the grams its base
// lacks. A run is a candidate for a literal when its base and its own document together hold every
// gram of the literal (lib/store/searchQuery.ts). A gram joins the base once it came in at least
// PROMOTE_AFTER runs and half the job's runs this process stored: a text a few runs have (a failure,
// a failed step's log) stays in their own documents, so a search for it reads those runs only (with
// "three runs in a row" instead, "connection refused" had 346 candidate runs in the sample world, not 60).
// Bases only grow, and a run's grams are always within its base and its own document: the index
// never hides a match.
import { gramText, TokenSet, tokensOfText } from './searchGrams';
import type { Database, Param, Sql } from './db';
import { insertMany } from './bulk';
import { KeptPerDatabase } from './keptBetweenPasses';

export const SEARCH_KIND = { logs: 1, failures: 2, bugs: 3 } as const;
export type SearchKind = keyof typeof SEARCH_KIND;
export const SEARCH_KINDS = Object.keys(SEARCH_KIND) as SearchKind[];

/** A stored build log: its path in the run folder, its text compressed, where it starts in the file. */
export interface StoredLog {
  path: string;
  body: Buffer;
  size: number;
  tailStart: number;
}

/** What a run gives the search index, as the run reader makes it (lib/search/runText.ts). */
export interface RunSearchText {
  logs: StoredLog[];
  /** the distinct gram tokens of its logs, and of its failures' test names and texts (lib/store/searchGrams.ts) */
  logGrams: Int32Array;
  failureGrams: Int32Array;
}

/** Runs a gram must come in (and half the job's runs) before it joins their job's base. */
export const PROMOTE_AFTER = 3;
/** Grams joining a base wait for this many before their document is written (or the end of a batch). */
const PROMOTE_BATCH = 256;

const DOC_COLUMNS = ['kind', 'base', 'run_id', 'job_id', 'bug_pk', 'started', 'grams'];

const key = (kind: number, jobId: number) => kind * 0x100000000 + jobId;

/** The stored base documents' count and newest id: what tells whether the bases kept are all there are. */
async function baseState(db: Sql): Promise<string> {
  const [row] = await db.rows('SELECT COUNT(*), MAX(id) FROM search_doc WHERE base = 1');
  return `${Number(row[0])}/${Number(row[1] ?? 0)}`;
}

/** What is counted of a (job, kind) to decide which grams join its base. */
interface Counting {
  runs: number;
  /** grams outside the base: in how many runs */
  seen: Map<number, number>;
  /** grams that qualified, waiting for their base document */
  waiting: number[];
}

const keptBases = new KeptPerDatabase<{ bases: SearchBases; state: string }>();

export class SearchBases {
  private bases = new Map<number, TokenSet>();
  private counting = new Map<number, Counting>();

  static async load(db: Sql): Promise<SearchBases> {
    const b = new SearchBases();
    for (const [kind, jobId, grams] of await db.rows('SELECT kind, job_id, grams FROM search_doc WHERE base = 1')) {
      const set = b.baseOf(key(Number(kind), Number(jobId)));
      for (const t of tokensOfText(grams as string)) set.add(t);
    }
    return b;
  }

  /** The bases the last completed pass on `db` left, when no base was written since; else loaded now. */
  static async forPass(db: Database): Promise<SearchBases> {
    const kept = keptBases.take(db);
    if (kept && (await baseState(db)) === kept.state) return kept.bases;
    return SearchBases.load(db);
  }

  /** Keeps these bases for the next pass on `db` (called when a pass has completed). */
  async keep(db: Database): Promise<void> {
    keptBases.keep(db, { bases: this, state: await baseState(db) });
  }

  /** After a rolled back transaction: what is stored, and nothing else. */
  async reload(db: Sql): Promise<void> {
    this.bases = (await SearchBases.load(db)).bases;
    this.counting.clear();
  }

  private baseOf(k: number): TokenSet {
    let set = this.bases.get(k);
    if (!set) this.bases.set(k, (set = new TokenSet()));
    return set;
  }

  /** The document rows for a run's grams of one kind: its own, and its job's base when that grew. */
  docRows(kind: SearchKind, jobId: number, runId: number, started: number, tokens: Int32Array, out: Param[][]): void {
    if (!tokens.length) return; // nothing to find (a run without failures, say)
    const k = key(SEARCH_KIND[kind], jobId);
    const base = this.baseOf(k);
    let c = this.counting.get(k);
    if (!c) this.counting.set(k, (c = { runs: 0, seen: new Map(), waiting: [] }));
    if (c.seen.size > 200_000) c.seen.clear(); // a bound on memory; only costs precision
    c.runs++;
    const own: number[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (base.has(t)) continue;
      own.push(t);
      const n = (c.seen.get(t) ?? 0) + 1;
      if (n >= PROMOTE_AFTER && n * 2 >= c.runs) {
        c.seen.delete(t);
        c.waiting.push(t);
      } else c.seen.set(t, n);
    }
    out.push([SEARCH_KIND[kind], 0, runId, jobId, null, started, gramText(own)]);
    if (c.waiting.length >= PROMOTE_BATCH) this.flushBase(k, out);
  }

  /** Base documents for the grams waiting to join (the end of a batch of runs). */
  flush(out: Param[][]): void {
    for (const k of this.counting.keys()) this.flushBase(k, out);
  }

  private flushBase(k: number, out: Param[][]): void {
    const c = this.counting.get(k);
    if (!c?.waiting.length) return;
    const base = this.baseOf(k);
    const joining = c.waiting.filter((t) => !base.has(t) && (base.add(t), true));
    if (joining.length) out.push([Math.floor(k / 0x100000000), 1, null, k % 0x100000000, null, 0, gramText(joining)]);
    c.waiting = [];
  }
}

/** Inserts documents, and on SQLite their rows of the FTS5 index (see the search_index migration). */
async function insertDocs(sql: Sql, docs: Param[][]): Promise<void> {
  if (sql.dialect === 'postgres') {
    await insertMany(sql, 'search_doc', DOC_COLUMNS, docs);
    return;
  }
  const ids = await insertMany<{ id: number }>(sql, 'search_doc', DOC_COLUMNS, docs, '', 'id');
  const grams = DOC_COLUMNS.indexOf('grams');
  await insertMany(sql, 'search_doc_fts', ['rowid', 'grams'], ids.map((r, i) => [r.id, docs[i][grams]]));
}

/** Writes runs' logs and documents (inside the caller's transaction). */
export async function writeSearchRows(sql: Sql, logs: Param[][], docs: Param[][]): Promise<void> {
  await insertMany(sql, 'run_log', ['run_id', 'path', 'body', 'size', 'tail_start'], logs);
  await insertDocs(sql, docs);
}

/** Replaces the documents of these bugs (their text: summary, description, comments). */
export async function writeBugDocs(sql: Sql, bugs: { pk: number; codes: Int32Array }[]): Promise<void> {
  if (!bugs.length) return;
  for (let i = 0; i < bugs.length; i += 500) {
    const chunk = bugs.slice(i, i + 500);
    await sql.run(`DELETE FROM search_doc WHERE bug_pk IN (${chunk.map(() => '?').join(', ')})`, chunk.map((b) => b.pk));
  }
  await insertDocs(sql, bugs.map((b) => [SEARCH_KIND.bugs, 0, null, 0, b.pk, 0, gramText(b.codes)]));
}
