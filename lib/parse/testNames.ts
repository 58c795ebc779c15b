// Test names as a pass keeps them, and the merge of a run's cases into one result per test.
// A pass reads the same few thousand names in every run of a job; each distinct name is kept once
// (cleaned, and detached from the file it was read from), so that every later lookup of it (the
// catalog's, the reader thread's numbering) is by the same string.
import type { RawCase, TestResult } from './types';

/**
 * A copy of `s` that does not keep the string it was sliced from alive. V8 represents a slice of 13+
 * chars as a view into its parent, so a 100-byte test name kept in a cache would otherwise retain the
 * whole multi-MB file it came from. Concatenating then slicing forces a flat copy.
 * Parsers leave test names as views while a run is read (it is stored and dropped soon after):
 * whatever keeps a name longer detaches it.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** Strips NUL and other C0 controls but tab and newline: PostgreSQL text cannot hold NUL. */
export function cleanText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(s) ? s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '') : s;
}

/** A small integer from a string's length and five of its characters (see TestNames.sampled). */
function sampleKey(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  let h = n;
  h = (h * 31 + s.charCodeAt(n >> 1)) | 0;
  h = (h * 31 + s.charCodeAt(n >> 2)) | 0;
  h = (h * 31 + s.charCodeAt((n * 3) >> 2)) | 0;
  h = (h * 31 + s.charCodeAt(n >> 3)) | 0;
  h = (h * 31 + s.charCodeAt(n - 1)) | 0;
  return h & 0x3fffffff;
}

/** The distinct test names of a pass, numbered in first-seen order. */
export class TestNames {
  /** the kept (cleaned, detached) names, by number */
  readonly names: string[] = [];
  private readonly numbers = new Map<string, number>();
  // where each name sits in the output of the current merge (valid when mergedIn[n] === merge)
  private merge = 0;
  private mergedIn = new Int32Array(256);
  private mergedAt = new Int32Array(256);

  /**
   * Names as written, by a key sampled from a few of their characters: a name read again (a fresh
   * string each run) is found by comparing it with the one or two candidates under its key, instead
   * of hashing all of its 100-odd characters for the map.
   */
  private readonly sampled = new Map<number, (string | number)[]>();

  /** The number of a name as written. Names that differ only in control characters are one test. */
  number(written: string): number {
    const key = sampleKey(written);
    const candidates = this.sampled.get(key);
    if (candidates) {
      for (let i = 0; i < candidates.length; i += 2) if (candidates[i] === written) return candidates[i + 1] as number;
    }
    const n = this.numberByName(written);
    // the kept string itself where it reads the same (then a result's name is found by identity);
    // a few candidates per key at most, names beyond that are found by the map
    const kept = this.names[n];
    const entry = written === kept ? kept : detach(written);
    if (!candidates) this.sampled.set(key, [entry, n]);
    else if (candidates.length < 16) candidates.push(entry, n);
    return n;
  }

  private numberByName(written: string): number {
    let n = this.numbers.get(written);
    if (n !== undefined) return n;
    const name = detach(cleanText(written));
    n = this.numbers.get(name);
    if (n === undefined) {
      n = this.names.length;
      this.names.push(name);
      this.numbers.set(name, n);
    }
    if (written !== name) this.numbers.set(detach(written), n);
    return n;
  }

  /** The kept string of a name as written. */
  kept(written: string): string {
    return this.names[this.number(written)];
  }

  /**
   * Merges a run's cases into one result per test, in first-seen order: fail + pass = flaked
   * (openshift-tests retries), only failures = failed (message of the last failure), passes only =
   * passed, skipped only = skipped, skipped + passed = passed, skipped + failed = failed.
   * `files`: the cases of each file, merged as if concatenated (without copying them into one array).
   */
  mergeCases(...files: (readonly RawCase[])[]): TestResult[] {
    const merge = ++this.merge;
    const out: TestResult[] = [];
    const state: number[] = []; // bit 1: a failure seen, bit 2: a pass seen
    for (const cases of files) {
      for (let i = 0; i < cases.length; i++) {
        const c = cases[i];
        const n = this.number(c.name);
        if (n >= this.mergedIn.length) this.grow();
        let k: number;
        if (this.mergedIn[n] === merge) k = this.mergedAt[n];
        else {
          k = out.length;
          this.mergedIn[n] = merge;
          this.mergedAt[n] = k;
          out.push({ name: this.names[n], outcome: 'skipped', message: '' });
          state.push(0);
        }
        if (c.result === 'failed') {
          state[k] |= 1;
          out[k].message = c.message;
        } else if (c.result === 'passed') state[k] |= 2;
      }
    }
    for (let k = 0; k < out.length; k++) {
      const st = state[k];
      out[k].outcome = st === 3 ? 'flaked' : st === 1 ? 'failed' : st === 2 ? 'passed' : 'skipped';
    }
    return out;
  }

  private grow(): void {
    const size = Math.max(this.names.length, this.mergedIn.length * 2);
    const mergedIn = new Int32Array(size);
    mergedIn.set(this.mergedIn);
    const mergedAt = new Int32Array(size);
    mergedAt.set(this.mergedAt);
    this.mergedIn = mergedIn;
    this.mergedAt = mergedAt;
  }
}

/** TestNames.mergeCases with names of its own (for one-off merges). */
export function mergeCases(...files: (readonly RawCase[])[]): TestResult[] {
  return new TestNames().mergeCases(...files);
}
