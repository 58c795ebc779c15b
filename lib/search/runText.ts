// What a run gives the search index, made where its files are parsed (the run reader, on either
// thread): its build logs (the job's and its failed steps', the last LOG_TAIL_BYTES of each, as
// ci-search keeps them) compressed, and the grams of those logs and of its failures.
import zlib from 'node:zlib';
import type { RunFile } from '../ingest/assemble';
import type { TestResult } from '../parse/types';
import { capMessage } from '../store/runs';
import type { RunSearchText, StoredLog } from '../store/searchIndex';
import { GramCollector } from '../store/searchGrams';

/** The bytes of a log search keeps: its end, as ci-search keeps the last 20 MiB. */
export const LOG_TAIL_BYTES = 20 * 1024 * 1024;

/** A build log of the run folder: the job's, or a step's (artifacts/<test>/<step>/build-log.txt). */
export const isBuildLog = (path: string) => path === 'build-log.txt' || /^artifacts\/[^/]+\/[^/]+\/build-log\.txt$/.test(path);

/**
 * Brotli at quality 1: on the sample world's 58 MB of logs 0.12-0.2 s of CPU and 7.0x smaller, where
 * deflate at level 1 took 0.2-0.44 s for 6.7x (measured here, 2026-12-01); search inflates only
 * candidates. Synchronous: in libuv's pool (zlib's callback form) the main thread spent more than
 * that on the stream's 16 KB chunks.
 */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };

export const compressLog = (text: Uint8Array): Buffer => zlib.brotliCompressSync(text, BROTLI);

export function decompressLog(body: Uint8Array): Buffer {
  return zlib.brotliDecompressSync(body);
}

/** The end of a log: its last LOG_TAIL_BYTES, from the first line that starts within them. */
export function logTail(bytes: Buffer, max = LOG_TAIL_BYTES): { text: Buffer; tailStart: number } {
  if (bytes.length <= max) return { text: bytes, tailStart: 0 };
  let from = bytes.length - max;
  const nl = bytes.indexOf(10, from - 1);
  from = nl < 0 ? bytes.length : nl + 1;
  return { text: bytes.subarray(from), tailStart: from };
}

/** The text a failure is searched by: its test's name, then its failure text as stored. */
export const failureText = (r: { name: string; message: string }) => `${r.name}\n${capMessage(r.message)}`;

/** A run's logs and grams; `grams` is the reading thread's collector. */
export function runSearchText(files: RunFile[], results: TestResult[], grams: GramCollector): RunSearchText {
  const logs: StoredLog[] = [];
  for (const f of files) {
    if (!('bytes' in f) || !isBuildLog(f.path)) continue;
    const { text, tailStart } = logTail(f.bytes);
    grams.add(text);
    logs.push({ path: f.path, body: compressLog(text), size: f.bytes.length, tailStart });
  }
  const logGrams = grams.take();
  for (const r of results) if (r.outcome === 'failed' || r.outcome === 'flaked') grams.addString(failureText(r));
  return { logs, logGrams, failureGrams: grams.take() };
}
