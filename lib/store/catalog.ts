// In-memory maps of the small, append-only tables (jobs, tests, test sets, signatures) so the write
// path resolves names to ids without a query per name. Loaded by a process's first pass and kept for
// the next ones while the database holds exactly what they know: at OpenShift's scale (30,000 tests,
// 50,000 signatures) loading them took 0.15-0.26 s a pass.
import { testId } from '../ids';
import { signatureOrderDigest, type StoredSignature } from '../signatures/clustering';
import type { Database, Param, Sql } from './db';
import { insertMany, pgArrayLiteral, selectIn } from './bulk';
import { holdsJust, KeptPerDatabase, tableStates } from './keptBetweenPasses';
import { encodeTestSet, testSetHash } from './testSets';

/** The id of a row inserted if new: one statement, and a second only when it already existed. */
async function insertOrSelect(sql: Sql, insert: string, values: Param[], select: string, keys: Param[]): Promise<number> {
  const inserted = await sql.get<{ id: number }>(`${insert} RETURNING id`, values);
  return inserted ? inserted.id : (await sql.get<{ id: number }>(select, keys))!.id;
}

/**
 * A set of test ids as stored (sorted, distinct, delta-encoded), and its bytes as a latin1 string:
 * most runs repeat a set the pass has seen, found by those bytes without hashing them. Null for none.
 */
function testSetKey(ids: Int32Array): { members: Buffer; size: number; bytes: string } | null {
  if (!ids.length) return null;
  const sorted = ids.slice().sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i];
  const members = encodeTestSet(sorted.subarray(0, n));
  return { members, size: n, bytes: members.toString('latin1') };
}

/** A run's failure signatures (one per result, null where none) and when the run started. */
type RunSignatures = { signatures: readonly ({ hash: string; text: string } | null)[]; firstSeen: number };

/**
 * Moves first_seen of these rows (id -> start) back to the start given where it is later: a run
 * stored after others (a backfill) may have started before them. One statement on PostgreSQL.
 */
async function lowerFirstSeen(sql: Sql, table: 'job' | 'test', lowered: ReadonlyMap<number, number>): Promise<void> {
  if (!lowered.size) return;
  if (sql.prepared) {
    await sql.prepared(`UPDATE ${table} AS t SET first_seen = u.first_seen FROM unnest(?::int4[], ?::int8[]) AS u(id, first_seen) WHERE t.id = u.id AND t.first_seen > u.first_seen`, [
      pgArrayLiteral([...lowered.keys()]),
      pgArrayLiteral([...lowered.values()]),
    ]);
  } else for (const [id, started] of lowered) await sql.run(`UPDATE ${table} SET first_seen = ? WHERE id = ? AND first_seen > ?`, [started, id, started]);
}

/** Notes `started` for `id` in `lowered` where it is earlier than both `known[id]` and what is noted. */
function noteEarlier(lowered: Map<number, number>, known: number[], id: number, started: number): void {
  if (started < known[id] && started < (lowered.get(id) ?? Infinity)) lowered.set(id, started);
}

export class Catalog {
  private jobs = new Map<string, number>();
  private tests = new Map<string, number>();
  /** first_seen by id (the earliest start of a stored run that has the job or test; see lowerFirstSeen) */
  private jobFirstSeen: number[] = [];
  private testFirstSeen: number[] = [];
  /** name -> id for names seen this pass (the strings runs carry: one per test per pass, see TestNames) */
  private testsByName = new Map<string, number>();
  private testSets = new Map<string, number>();
  /** members (encoded, as a latin1 string) -> id, for sets seen this pass */
  private testSetsByMembers = new Map<string, number>();
  private signatureIds = new Map<string, number>();

  static async load(db: Sql): Promise<Catalog> {
    const c = new Catalog();
    for (const [id, name, firstSeen] of await db.rows('SELECT id, name, first_seen FROM job')) {
      c.jobs.set(name as string, Number(id));
      c.jobFirstSeen[Number(id)] = Number(firstSeen);
    }
    for (const [id, hash, firstSeen] of await db.rows('SELECT id, hash, first_seen FROM test')) {
      c.tests.set(hash as string, Number(id));
      c.testFirstSeen[Number(id)] = Number(firstSeen);
    }
    for (const [id, hash] of await db.rows('SELECT id, hash FROM test_set')) c.testSets.set(hash as string, Number(id));
    for (const [id, hash] of await db.rows('SELECT id, hash FROM signature ORDER BY id')) c.signatureIds.set(hash as string, Number(id));
    return c;
  }

  /**
   * The catalog for a pass: the one the last completed pass on this database object left (see keep),
   * when the database still holds exactly what it knows (it knows only committed rows; see
   * holdsJust); else one loaded now.
   */
  static async forPass(db: Database): Promise<{ catalog: Catalog; kept: boolean }> {
    const kept = keptCatalogs.take(db);
    if (kept && (await kept.matches(db))) {
      kept.testsByName.clear();
      kept.testSetsByMembers.clear();
      return { catalog: kept, kept: true };
    }
    return { catalog: await Catalog.load(db), kept: false };
  }

  /** Keeps this catalog for the next pass on `db` (see forPass): called when a pass has completed. */
  keep(db: Database): void {
    keptCatalogs.keep(db, this);
  }

  /** Whether the database's tables hold exactly the rows this catalog knows. */
  private async matches(db: Sql): Promise<boolean> {
    const maps = [this.jobs, this.tests, this.testSets, this.signatureIds];
    const states = await tableStates(db, [['job', 'name'], ['test', 'hash'], ['test_set', 'hash'], ['signature', 'hash']]);
    return states.every((state, k) => {
      let newest: [string, number] = ['', 0];
      for (const entry of maps[k]) if (entry[1] > newest[1]) newest = entry;
      return holdsJust(state, maps[k].size, newest);
    });
  }

  /** The digest of the stored signatures in creation order, as SignatureIndex.digest gives it. */
  signatureDigest(): string {
    return signatureOrderDigest([...this.signatureIds].sort((a, b) => a[1] - b[1]).map(([hash]) => hash));
  }

  /** The stored signatures in creation order (their texts are not kept: an index is seeded from them). */
  static storedSignatures(db: Sql): Promise<StoredSignature[]> {
    return db.all<StoredSignature>('SELECT id, hash, text FROM signature ORDER BY id');
  }

  /**
   * Per run, its job's id, creating the missing jobs; first_seen is the earliest start of the job's
   * stored runs (moved back when an earlier run is stored).
   */
  async jobIds(sql: Sql, runs: readonly { job: string; type: string; started: number }[]): Promise<number[]> {
    const lowered = new Map<number, number>();
    for (const r of runs) {
      let id = this.jobs.get(r.job);
      if (id === undefined) {
        const found = await insertOrSelect(sql, 'INSERT INTO job (name, type, first_seen) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [r.job, r.type, r.started], 'SELECT id FROM job WHERE name = ?', [r.job]);
        this.jobs.set(r.job, (id = found));
        // created now, or by another process from another run: lowerFirstSeen makes sure
        this.jobFirstSeen[id] ??= r.started;
        lowered.set(id, r.started);
      } else noteEarlier(lowered, this.jobFirstSeen, id, r.started);
    }
    await lowerFirstSeen(sql, 'job', lowered);
    for (const [id, started] of lowered) this.jobFirstSeen[id] = Math.min(this.jobFirstSeen[id], started);
    return runs.map((r) => this.jobs.get(r.job)!);
  }

  /**
   * Per list of names, the ids of the tests (same order), creating the missing tests. `started`: when
   * each list's run started; a test's first_seen is the earliest start of a stored run that has it.
   */
  async testIds(sql: Sql, lists: readonly (readonly { name: string }[])[], started: readonly number[]): Promise<Int32Array[]> {
    const { ids, unseen } = this.knownTestIds(lists);
    if (unseen.size) {
      const missing = [...unseen].filter(([, u]) => !this.tests.has(u.hash));
      if (missing.length) {
        const firstSeen = (u: { at: number[] }) => {
          let t = Infinity;
          for (let j = 0; j < u.at.length; j += 2) t = Math.min(t, started[u.at[j]]);
          return t;
        };
        await insertMany(sql, 'test', ['hash', 'name', 'first_seen'], missing.map(([name, u]) => [u.hash, name, firstSeen(u)]), 'ON CONFLICT (hash) DO NOTHING');
        const rows = await selectIn<{ id: number; hash: string; first_seen: number }>(sql, (p) => `SELECT id, hash, first_seen FROM test WHERE hash IN (${p})`, missing.map(([, u]) => u.hash));
        for (const r of rows) {
          this.tests.set(r.hash, r.id);
          this.testFirstSeen[r.id] = Number(r.first_seen);
        }
      }
      for (const [name, u] of unseen) {
        const id = this.tests.get(u.hash)!;
        // the run's own string (kept once per pass already, see TestNames): later runs find it by identity
        this.testsByName.set(name, id);
        for (let j = 0; j < u.at.length; j += 2) ids[u.at[j]][u.at[j + 1]] = id;
      }
    }
    const lowered = this.earlierTestStarts(ids, started);
    await lowerFirstSeen(sql, 'test', lowered);
    for (const [id, t] of lowered) this.testFirstSeen[id] = t;
    return ids;
  }

  /** The tests of these runs that a run started before their first_seen (id -> earliest such start). */
  private earlierTestStarts(ids: readonly Int32Array[], started: readonly number[]): Map<number, number> {
    const lowered = new Map<number, number>();
    const known = this.testFirstSeen;
    for (let k = 0; k < ids.length; k++) {
      const list = ids[k];
      const t = started[k];
      for (let i = 0; i < list.length; i++) if (t < known[list[i]]) noteEarlier(lowered, known, list[i], t);
    }
    return lowered;
  }

  /** The ids of the names seen this pass, and where the others occur (with their hash). */
  private knownTestIds(lists: readonly (readonly { name: string }[])[]): { ids: Int32Array[]; unseen: Map<string, { hash: string; at: number[] }> } {
    const ids = lists.map((l) => new Int32Array(l.length));
    const unseen = new Map<string, { hash: string; at: number[] }>();
    for (let k = 0; k < lists.length; k++) {
      const list = lists[k];
      const out = ids[k];
      for (let i = 0; i < list.length; i++) {
        const id = this.testsByName.get(list[i].name);
        if (id !== undefined) out[i] = id;
        else {
          const name = list[i].name;
          let u = unseen.get(name);
          if (!u) unseen.set(name, (u = { hash: testId(name), at: [] }));
          u.at.push(k, i);
        }
      }
    }
    return { ids, unseen };
  }

  /** Per list of test ids (in any order, repeats allowed), the id of its set, creating the missing sets; null for none. */
  async testSetIds(sql: Sql, sets: readonly Int32Array[]): Promise<(number | null)[]> {
    const keys = sets.map(testSetKey);
    for (const k of keys) {
      if (!k || this.testSetsByMembers.has(k.bytes)) continue;
      // new this pass: by its hash, created if the database does not have it either
      const hash = testSetHash(k.members);
      let id = this.testSets.get(hash);
      if (id === undefined) {
        id = await insertOrSelect(sql, 'INSERT INTO test_set (hash, size, members) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING', [hash, k.size, k.members], 'SELECT id FROM test_set WHERE hash = ?', [hash]);
        this.testSets.set(hash, id);
      }
      this.testSetsByMembers.set(k.bytes, id);
    }
    return keys.map((k) => (k ? this.testSetsByMembers.get(k.bytes)! : null));
  }

  /** Creates the signatures among these that are not stored yet (the clustering index chose them). */
  async addSignatures(sql: Sql, runs: readonly RunSignatures[]): Promise<void> {
    for (const { sig, firstSeen } of this.newSignatures(runs)) {
      if (this.signatureIds.has(sig.hash)) continue; // twice in this batch
      const id = await insertOrSelect(sql, 'INSERT INTO signature (hash, text, first_seen) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING', [sig.hash, sig.text, firstSeen], 'SELECT id FROM signature WHERE hash = ?', [sig.hash]);
      this.signatureIds.set(sig.hash, id);
    }
  }

  /** The signatures of these results not stored yet, in order (a synchronous loop over every result). */
  private newSignatures(runs: readonly RunSignatures[]): { sig: { hash: string; text: string }; firstSeen: number }[] {
    const out: { sig: { hash: string; text: string }; firstSeen: number }[] = [];
    for (const r of runs) for (const sig of r.signatures) if (sig && !this.signatureIds.has(sig.hash)) out.push({ sig, firstSeen: r.firstSeen });
    return out;
  }

  /** The id of a stored signature (see addSignatures). */
  signatureId(hash: string): number {
    return this.signatureIds.get(hash)!;
  }

  /** After a rolled-back transaction: forget ids that may not have been committed. */
  async reload(db: Sql): Promise<void> {
    const fresh = await Catalog.load(db);
    Object.assign(this, fresh);
  }
}

/** The catalog each database object's last completed pass left (see Catalog.forPass). */
const keptCatalogs = new KeptPerDatabase<Catalog>();
