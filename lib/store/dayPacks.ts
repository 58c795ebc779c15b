// Day packs: a whole past UTC day of a per-day rollup kept a second time, one row per id (a test, a
// signature) holding all of that id's rows of the day packed (encodeValues). A verdict reads each
// test's rows per job for 14 days: at 24,000 runs a day a hot list's 100 tests have about 470,000
// rows of rollup_test_day there, most of a computed answer's time and garbage; their packs are 1,400
// rows. The rollups stay the truth and are written as before: the ingester packs a day once it is
// over (packDays, after a pass), recording the day's version (lib/store/rollups.ts) it packed, and
// readers take a pack only while that version is the day's own, so a late run or a pruned one
// only sends readers back to the rollup until the day is packed again. A day pruned whole is forgotten.
import { inChunks, insertMany } from './bulk';
import type { Database } from './db';
import { deleteKv } from './kv';
import { DAY, dayVersions, dropDayVersions } from './rollups';
import type { Sql } from './sql';

/** A per-day rollup read per id: its row as answers read it, the id first and the day third. */
export interface PackedRollup {
  /** the name readers and the day cache know it by */
  name: string;
  table: string;
  columns: string[];
  /** a column indexed after the day, that packing reads a day in slices of */
  slice: string;
}

/** Per test, job and day: what verdicts and test windows read (lib/history/rollupWindow.ts). */
export const TEST_JOB_DAYS: PackedRollup = { name: 'rollup_test_day', table: 'rollup_test_day', columns: ['test_id', 'job_id', 'day', 'failed', 'flaked', 'failed_broken', 'flaked_broken'], slice: 'job_id' };
/** The same per job, test and day: what a hot list of some jobs ranks on (lib/history/rollupWindow.ts). */
export const TEST_DAYS_BY_JOB: PackedRollup = { name: 'rollup_test_day by job', table: 'rollup_test_day', columns: ['job_id', 'test_id', 'day', 'failed', 'flaked'], slice: 'job_id' };
/** Per signature, job and day: what causes read (lib/history/causeWindow.ts). */
export const SIGNATURE_JOB_DAYS: PackedRollup = { name: 'rollup_sig_day', table: 'rollup_sig_day', columns: ['signature_id', 'job_id', 'day', 'runs', 'flaked_runs'], slice: 'signature_id' };
export const PACKED_ROLLUPS: readonly PackedRollup[] = [TEST_JOB_DAYS, TEST_DAYS_BY_JOB, SIGNATURE_JOB_DAYS];

const ID = 0;
const DAY_COLUMN = 2;
/** A day is packed once it has been over this long: most runs that started in it have been ingested by then. */
export const PACK_AFTER_S = 6 * 3600;
/** What packing may take after a pass, newest days first; the rest waits for the next pass. */
export const PACK_BUDGET_MS = 20_000;

const VERSION_KEY = 'day_pack:';
const versionKey = (r: PackedRollup, day: number) => `${VERSION_KEY}${r.name}:${day}`;

/**
 * The format of the packs written now, recorded with the day version each pack stands for: a pack of
 * another format (fixed-width, before) is not read, and the ingester packs its day again.
 */
const PACK_FORMAT = 'varint:';
/** What `kv` records for a pack of the day version `version`. */
const packedAs = (version: string) => PACK_FORMAT + version;
/** Whether `r`'s pack of `day` (in `packed`, from packedVersions) stands for the day's version, in this format. */
const packStands = (packed: Map<string, string>, r: PackedRollup, day: number, version: string | undefined) =>
  version !== undefined && packed.get(`${r.name}:${day}`) === packedAs(version);

/**
 * A pack's bytes: the values of an id's rows of a day without the id and the day (those are the pack's
 * key), `packedWidth` a row, as zigzag varints (LEB128) after the row count, each row's first value as
 * its difference from the row before (rows come in its order: a job, a test). Most values are 0-3
 * counts: 5 bytes a row where 32-bit integers took 20, and PostgreSQL sends bytea as hex, twice that
 * (a hot list's verdicts read 440,000 rows of packs).
 */
export function encodeValues(values: ArrayLike<number>, packedWidth: number): Buffer {
  const out = Buffer.allocUnsafe(5 * (values.length + 1));
  let o = 0;
  const put = (unsigned: number) => {
    let u = unsigned;
    while (u >= 0x80) {
      out[o++] = (u & 0x7f) | 0x80;
      u >>>= 7;
    }
    out[o++] = u;
  };
  const zigzag = (v: number) => ((v << 1) ^ (v >> 31)) >>> 0;
  put(values.length / packedWidth);
  let previous = 0;
  for (let i = 0; i < values.length; i++) {
    const first = i % packedWidth === 0;
    put(zigzag(first ? values[i] - previous : values[i]));
    if (first) previous = values[i];
  }
  return Buffer.from(out.subarray(0, o)); // (a copy of its own, not a view of the larger allocation)
}

/**
 * A pack back as the rollup's rows flattened, `width` numbers each, with its id and day put back.
 * (One loop over the bytes, no call per value: a new process runs it unoptimized at first.)
 */
export function decodeCells(buf: Uint8Array, width: number, id: number, day: number): Int32Array {
  let pos = 0;
  let u = 0;
  let shift = 0;
  let b = 0;
  do {
    b = buf[pos++];
    u |= (b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80);
  const out = new Int32Array(u * width);
  let previous = 0;
  for (let o = 0; o < out.length; o += width) {
    out[o + ID] = id;
    out[o + DAY_COLUMN] = day;
    for (let j = 1; j < width; j++) {
      if (j === DAY_COLUMN) continue;
      // most values take one byte
      u = buf[pos++];
      if (u >= 0x80) {
        u &= 0x7f;
        shift = 7;
        do {
          b = buf[pos++];
          u |= (b & 0x7f) << shift;
          shift += 7;
        } while (b & 0x80);
      }
      const v = (u >>> 1) ^ -(u & 1);
      out[o + j] = j === 1 ? (previous += v) : v;
    }
  }
  return out;
}

/** Each rollup's packed days and the day version each was packed at: "name:day" -> version. */
async function packedVersions(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql.rows(`SELECT key, value FROM kv WHERE key >= '${VERSION_KEY}' AND key < 'day_pack;'`);
  return new Map(rows.map(([k, v]) => [String(k).slice(VERSION_KEY.length), String(v)]));
}

/**
 * Forgets the days before the first stored run (retention pruned them whole): their packs, each pack's
 * record in kv and the day's version. Packed again as empty days, they were kept for good, and each
 * packing counted them standing. Returns the days forgotten.
 */
async function forgetPrunedDays(db: Database, versions: Map<number, string>): Promise<number[]> {
  const daysBeforeFirstRun = async (sql: Sql) => {
    const [[first]] = await sql.rows('SELECT MIN(started) FROM run');
    const firstDay = first === null ? Infinity : Math.floor(Number(first) / DAY);
    return [...versions.keys()].filter((d) => d < firstDay);
  };
  // most packings find none: no write transaction for those
  if (!(await daysBeforeFirstRun(db)).length) return [];
  return db.tx(async (sql) => {
    const gone = await daysBeforeFirstRun(sql);
    for (const [placeholders, days] of inChunks(gone, 500)) await sql.run(`DELETE FROM day_pack WHERE day IN (${placeholders})`, days);
    await deleteKv(sql, gone.flatMap((d) => PACKED_ROLLUPS.map((r) => versionKey(r, d))));
    await dropDayVersions(sql, gone);
    return gone;
  });
}

/**
 * The packed rows of `ids` over the days [d0, d1) whose pack stands at the day `versions` given (read
 * before this, so a pack is never older than the version it is taken for): `days`, the days the packs
 * answer for (an id with no pack there has no rows that day); `cells`, "id|day" -> rows, flattened.
 */
export async function readPacks(sql: Sql, r: PackedRollup, ids: number[], d0: number, d1: number, versions: Map<number, string>): Promise<{ days: Set<number>; cells: Map<string, Int32Array> }> {
  const days = new Set<number>();
  const cells = new Map<string, Int32Array>();
  if (!ids.length || d1 <= d0) return { days, cells };
  const packed = await packedVersions(sql);
  for (let d = d0; d < d1; d++) if (packStands(packed, r, d, versions.get(d))) days.add(d);
  if (!days.size) return { days, cells };
  let lo = Infinity;
  let hi = -Infinity;
  for (const d of days) [lo, hi] = [Math.min(lo, d), Math.max(hi, d)];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await sql.rows(`SELECT id, day, cells FROM day_pack WHERE rollup = ? AND id IN (${chunk.map(() => '?').join(', ')}) AND day >= ? AND day <= ?`, [r.name, ...chunk, lo, hi]);
    for (const [id, day, blob] of rows) {
      if (!days.has(Number(day))) continue;
      cells.set(`${Number(id)}|${Number(day)}`, decodeCells(blob as Uint8Array, r.columns.length, Number(id), Number(day)));
    }
  }
  return { days, cells };
}

export interface PackSummary {
  /** days packed (per rollup) */
  packed: number;
  /** days over and packed at their current version, before this call */
  standing: number;
  /** days over that wait for a later call (the budget ran out) */
  waiting: number;
  /** days before the first stored run (pruned whole) whose packs and versions went */
  forgotten: number;
  ms: number;
  errors: string[];
}

/**
 * Packs the days over by PACK_AFTER_S at `now` (Unix seconds) whose pack is missing or older than the
 * day, newest first, until `budgetMs` is spent. The ingester calls this after each pass; an error is
 * reported, never thrown (the pass stands, readers use the rollups).
 */
export async function packDays(db: Database, opts: { now?: number; budgetMs?: number } = {}): Promise<PackSummary> {
  const t0 = Date.now();
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const budget = opts.budgetMs ?? PACK_BUDGET_MS;
  const summary: PackSummary = { packed: 0, standing: 0, waiting: 0, forgotten: 0, ms: 0, errors: [] };
  try {
    const versions = await dayVersions(db);
    for (const day of await forgetPrunedDays(db, versions)) {
      versions.delete(day);
      summary.forgotten++;
    }
    const packed = await packedVersions(db);
    const lastOver = Math.floor((now - PACK_AFTER_S) / DAY) - 1;
    const days = [...versions.keys()].filter((d) => d <= lastOver).sort((a, b) => b - a);
    for (const day of days) {
      for (const r of PACKED_ROLLUPS) {
        if (packStands(packed, r, day, versions.get(day))) summary.standing++;
        else if (Date.now() - t0 >= budget) summary.waiting++;
        else if (await packDay(db, r, day, versions.get(day)!)) summary.packed++;
        else summary.waiting++;
      }
    }
  } catch (e) {
    summary.errors.push((e as Error).message);
  }
  summary.ms = Date.now() - t0;
  return summary;
}

/** Rows read at a time while packing a day (a day of rollup_test_day is 800,000 rows at 24,000 runs a day). */
const PACK_SLICE_ROWS = 100_000;

/**
 * Packs one day of one rollup as it stands at `version`; false when the day changed meanwhile (packed
 * at a later call). The day is read in slices of its `slice` column (indexed after the day), so an
 * ingester holds its values, never all of its rows at once.
 */
async function packDay(db: Database, r: PackedRollup, day: number, version: string): Promise<boolean> {
  const [lo, hi, count] = (await db.rows(`SELECT MIN(${r.slice}), MAX(${r.slice}), COUNT(*) FROM ${r.table} WHERE day = ?`, [day]))[0].map(Number);
  const values = new Map<number, number[]>();
  const step = Math.max(1, Math.ceil(((hi - lo + 1) * PACK_SLICE_ROWS) / Math.max(1, count)));
  for (let a = lo; count > 0 && a <= hi; a += step) {
    const rows = await db.rows(`SELECT ${r.columns.join(', ')} FROM ${r.table} WHERE day = ? AND ${r.slice} >= ? AND ${r.slice} < ? ORDER BY ${r.slice}, ${r.columns[ID]}, ${r.columns[1]}`, [day, a, a + step]);
    for (const row of rows) {
      const id = Number(row[ID]);
      let v = values.get(id);
      if (!v) values.set(id, (v = []));
      for (let j = 0; j < row.length; j++) if (j !== ID && j !== DAY_COLUMN) v.push(Number(row[j]));
    }
  }
  const packs = [...values].sort((x, y) => x[0] - y[0]).map(([id, v]) => [r.name, id, day, encodeValues(v, r.columns.length - 2)]);
  return db.tx(async (sql) => {
    // the rows read are of this version only if the day did not change since it was read
    if ((await dayVersions(sql)).get(day) !== version) return false;
    await sql.run('DELETE FROM day_pack WHERE rollup = ? AND day = ?', [r.name, day]);
    await insertMany(sql, 'day_pack', ['rollup', 'id', 'day', 'cells'], packs);
    await sql.run('INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [versionKey(r, day), packedAs(version)]);
    return true;
  });
}

export function formatPackSummary(s: PackSummary): string {
  const errors = s.errors.length ? `; not all: ${s.errors.join('; ')}` : '';
  const forgotten = s.forgotten ? `, ${s.forgotten} pruned days forgotten` : '';
  return `day packs: ${s.packed} packed, ${s.standing} standing, ${s.waiting} waiting${forgotten}, in ${(s.ms / 1000).toFixed(1)} s${errors}`;
}
