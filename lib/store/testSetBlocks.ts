// Which test sets hold a test, kept per test as bits over blocks of BLOCK_SETS set ids
// (test_set_block). A verdict asks "did this run execute this test" of every run of its 14 days, and
// a test window counts the runs that executed its tests: at 24,000 runs a day that read every set of
// the lookback, 5,000 sets of 3,000 tests (15 MB, about 0.15 s on SQLite and 0.5 s on PostgreSQL,
// then their decoding), for a hot list's 100 tests; here those tests are 200 rows of 512 bytes.
// Sets never change once written, so bits are only ever added: after each pass the ingester indexes
// the sets written since the last time (indexTestSets), marking them in the rows of test 0; a reader
// takes the bits of the sets marked there and reads any other set it meets from test_set itself (a
// set written since, or a database never indexed), so an answer is the same either way.
import { insertMany, selectRowsIn } from './bulk';
import type { Database } from './db';
import { decodeTestSet, loadTestSets, type TestSetMembers } from './testSets';

export const BLOCK_SETS = 4096;
const BLOCK_BYTES = BLOCK_SETS / 8;
/** The test id whose rows mark the sets indexed (no test has it). */
const INDEXED = 0;
/** PostgreSQL's advisory lock of the index: two ingesters' builds would each write blocks the other read. */
const INDEX_LOCK = 727277;

const blockOf = (setId: number) => Math.floor(setId / BLOCK_SETS);

function hasBit(blocks: Map<number, Uint8Array> | undefined, setId: number): boolean {
  const bits = blocks?.get(blockOf(setId));
  const k = setId % BLOCK_SETS;
  return !!bits && (bits[k >> 3] & (1 << (k & 7))) !== 0;
}

/**
 * Which of some tests the test sets of a range of runs hold (`setIds`, those of its run cells), from
 * the index and, for the sets it does not mark, from the sets themselves. Tests are read as they are
 * asked for (load); a set outside the range holds none of them, as when only the range's sets were read.
 */
export class TestSetHolders {
  /** the sets marked indexed when first read: block -> bits */
  private marks?: Map<number, Uint8Array>;
  /** the range's sets not marked then, decoded */
  private readonly unindexed = new Map<number, TestSetMembers>();
  /** test -> block -> bits */
  private readonly bitsOf = new Map<number, Map<number, Uint8Array>>();
  private loading: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly setIds: ReadonlySet<number>,
  ) {}

  /** Reads the bits of the tests not read yet; loads run one after another (a later one may need none). */
  load(testIds: Iterable<number>): Promise<void> {
    const ids = [...testIds];
    // a load that failed fails its own caller only
    this.loading = this.loading.catch(() => undefined).then(() => this.read(ids));
    return this.loading;
  }

  private async read(testIds: number[]): Promise<void> {
    const missing = [...new Set(testIds)].filter((t) => !this.bitsOf.has(t));
    const first = !this.marks;
    if (!missing.length && !first) return;
    // the marks and the tests' bits in one statement: one snapshot. A later load may see more sets
    // indexed; those are among `unindexed` and answered from there, bits being only ever added.
    const ids = first ? [INDEXED, ...missing] : missing;
    const got = new Map<number, Map<number, Uint8Array>>(ids.map((id) => [id, new Map()]));
    for (const [t, block, bits] of await selectRowsIn(this.db, (p) => `SELECT test_id, block, bits FROM test_set_block WHERE test_id IN (${p})`, ids)) {
      got.get(Number(t))!.set(Number(block), bits as Uint8Array);
    }
    if (first) {
      this.marks = got.get(INDEXED)!;
      const sets = await loadTestSets(this.db, [...this.setIds].filter((s) => s > 0 && !hasBit(this.marks, s)));
      for (const [id, set] of sets) this.unindexed.set(id, set);
    }
    for (const t of missing) this.bitsOf.set(t, got.get(t)!);
  }

  /** Whether the index marked the set when first read (else it is read from test_set). */
  indexed(setId: number): boolean {
    return hasBit(this.marks, setId);
  }

  /** Whether the set (a run's, null for none) holds the test; the test must have been loaded. */
  has(setId: number | null, testId: number): boolean {
    if (setId === null || !this.setIds.has(setId)) return false;
    const set = this.unindexed.get(setId);
    if (set) return set.has(testId);
    const bits = this.bitsOf.get(testId);
    if (!bits) throw new Error(`test set holders: test ${testId} was not loaded`);
    return hasBit(bits, setId);
  }

  /**
   * Set id -> which of the given (loaded) tests it holds, in their order, for every set of the range.
   * Sets that hold the same tests share one list, never to be changed (a hot list's 100 tests: 5,300
   * sets, 285 lists): each set walks a tree of the lists' prefixes, a step per test it holds, in
   * typed arrays; only the lists at the walks' ends are made. A list per set grown test by test was
   * half a million pushes and 20 MB of garbage a call.
   */
  wanted(testIds: number[]): Map<number, readonly number[]> {
    const tests = [...new Set(testIds)];
    let maxSet = 0;
    for (const s of this.setIds) if (s > maxSet) maxSet = s;
    const inRange = new Uint8Array(maxSet + 1);
    for (const s of this.setIds) if (s > 0) inRange[s] = 1;
    const tree = new ListTree(tests, maxSet, 4 * this.setIds.size + 1024);
    for (let ti = 0; ti < tests.length; ti++) {
      const blocks = this.bitsOf.get(tests[ti]);
      if (!blocks) throw new Error(`test set holders: test ${tests[ti]} was not loaded`);
      this.walkTest(tree, ti, tests[ti], blocks, inRange);
    }
    const out = new Map<number, readonly number[]>();
    for (const s of this.setIds) if (s > 0) out.set(s, tree.list(s));
    return out;
  }

  /** Each set of the range that holds the test steps to its next node (a loop alone in a function: V8 optimizes it while it runs). */
  private walkTest(tree: ListTree, ti: number, t: number, blocks: Map<number, Uint8Array>, inRange: Uint8Array): void {
    const tail = this.unindexed.size > 0;
    for (const [block, bits] of blocks) {
      const base = block * BLOCK_SETS;
      for (let i = 0; i < bits.length; i++) {
        for (let byte = bits[i]; byte; byte &= byte - 1) {
          const s = base + i * 8 + (31 - Math.clz32(byte & -byte));
          if (s < inRange.length && inRange[s] && !(tail && this.unindexed.has(s))) tree.step(s, ti);
        }
      }
    }
    if (tail) for (const [s, set] of this.unindexed) if (inRange[s] && set.has(t)) tree.step(s, ti);
    tree.endTest();
  }
}

/**
 * The lists of tests the sets hold, as a tree of their prefixes in typed arrays: node 0 is the empty
 * list, node k > 0 its parent's list and then the test at index testOf[k]. Tests are walked in order;
 * each set holding the test in hand steps to its node's child for it (made by the first set there).
 */
class ListTree {
  /** set id -> its node so far */
  private readonly at: Int32Array;
  private parent: Int32Array;
  private testOf: Int32Array;
  /** a node's child for the test in hand (-1: none yet), reset after each test */
  private childOf: Int32Array;
  private nodes = 1;
  private readonly touched: number[] = [];
  private readonly lists = new Map<number, readonly number[]>();

  /** `tests`: the tests walked, by index */
  constructor(
    private readonly tests: number[],
    maxSet: number,
    capacity: number,
  ) {
    this.at = new Int32Array(maxSet + 1);
    this.parent = new Int32Array(capacity);
    this.testOf = new Int32Array(capacity);
    this.childOf = new Int32Array(capacity).fill(-1);
  }

  step(s: number, ti: number): void {
    const p = this.at[s];
    let c = this.childOf[p];
    if (c < 0) {
      if (this.nodes === this.parent.length) this.grow();
      c = this.nodes++;
      this.parent[c] = p;
      this.testOf[c] = ti;
      this.childOf[p] = c;
      this.touched.push(p);
    }
    this.at[s] = c;
  }

  /** The children found for this test are not the next test's. */
  endTest(): void {
    for (let k = 0; k < this.touched.length; k++) this.childOf[this.touched[k]] = -1;
    this.touched.length = 0;
  }

  /** The set's list of tests (one array per list, shared). */
  list(s: number): readonly number[] {
    const node = this.at[s];
    let list = this.lists.get(node);
    if (!list) {
      const made: number[] = [];
      for (let k = node; k > 0; k = this.parent[k]) made.push(this.tests[this.testOf[k]]);
      this.lists.set(node, (list = made.reverse()));
    }
    return list;
  }

  private grow(): void {
    const twice = (a: Int32Array, fill: number) => {
      const grown = new Int32Array(2 * a.length).fill(fill);
      grown.set(a);
      return grown;
    };
    this.parent = twice(this.parent, 0);
    this.testOf = twice(this.testOf, 0);
    this.childOf = twice(this.childOf, -1);
  }
}

/** The given tests' holders among the given sets, loaded. */
export async function testSetHolders(db: Database, setIds: Iterable<number>, testIds: number[]): Promise<TestSetHolders> {
  const holders = new TestSetHolders(db, new Set(setIds));
  await holders.load(testIds);
  return holders;
}

export interface SetIndexSummary {
  /** sets indexed by this call */
  indexed: number;
  ms: number;
  errors: string[];
}

/** Sets decoded at a time while indexing (a fresh database's first call indexes every set). */
const INDEX_CHUNK = 500;

/**
 * Indexes every set not marked yet, in one transaction. The ingester calls this after each pass; an
 * error is reported, never thrown (readers read the sets not indexed from test_set).
 */
export async function indexTestSets(db: Database): Promise<SetIndexSummary> {
  const t0 = Date.now();
  const summary: SetIndexSummary = { indexed: 0, ms: 0, errors: [] };
  try {
    summary.indexed = await db.tx(async (sql) => {
      if (sql.dialect === 'postgres') await sql.run('SELECT pg_advisory_xact_lock(?)', [INDEX_LOCK]);
      const marked = new Map((await sql.rows('SELECT block, bits FROM test_set_block WHERE test_id = ?', [INDEXED])).map(([b, bits]) => [Number(b), bits as Uint8Array]));
      const todo = (await sql.rows('SELECT id FROM test_set ORDER BY id')).map(([id]) => Number(id)).filter((id) => !hasBit(marked, id));
      if (!todo.length) return 0;
      // test -> block -> the bits to add
      const adds = new Map<number, Map<number, Uint8Array>>();
      const add = (test: number, setId: number) => {
        let blocks = adds.get(test);
        if (!blocks) adds.set(test, (blocks = new Map()));
        let bits = blocks.get(blockOf(setId));
        if (!bits) blocks.set(blockOf(setId), (bits = new Uint8Array(BLOCK_BYTES)));
        const k = setId % BLOCK_SETS;
        bits[k >> 3] |= 1 << (k & 7);
      };
      for (let i = 0; i < todo.length; i += INDEX_CHUNK) {
        const chunk = todo.slice(i, i + INDEX_CHUNK);
        for (const [id, members] of await sql.rows(`SELECT id, members FROM test_set WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk)) {
          for (const test of decodeTestSet(members as Uint8Array)) add(test, Number(id));
          add(INDEXED, Number(id));
        }
      }
      // each block touched: its stored bits added in, then written back
      for (const block of new Set(todo.map(blockOf))) {
        const tests = [...adds].filter(([, blocks]) => blocks.has(block)).map(([test]) => test);
        for (const [t, bits] of await selectRowsIn(sql, (p) => `SELECT test_id, bits FROM test_set_block WHERE block = ${block} AND test_id IN (${p})`, tests)) {
          const into = adds.get(Number(t))!.get(block)!;
          const stored = bits as Uint8Array;
          for (let i = 0; i < into.length && i < stored.length; i++) into[i] |= stored[i];
        }
        const rows = tests.map((t) => [t, block, Buffer.from(adds.get(t)!.get(block)!)]);
        await insertMany(sql, 'test_set_block', ['test_id', 'block', 'bits'], rows, 'ON CONFLICT (test_id, block) DO UPDATE SET bits = excluded.bits');
      }
      return todo.length;
    });
  } catch (e) {
    summary.errors.push((e as Error).message);
  }
  summary.ms = Date.now() - t0;
  return summary;
}

export function formatSetIndexSummary(s: SetIndexSummary): string {
  const errors = s.errors.length ? `; not all: ${s.errors.join('; ')}` : '';
  return `test set index: ${s.indexed} sets indexed in ${(s.ms / 1000).toFixed(1)} s${errors}`;
}
