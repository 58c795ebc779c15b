// The replay server's in-memory view of a generated world: the manifest, the object index (sorted by
// name, for GCS listings), Deck's job records and the tracker data. Loaded once per server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { REPLAY_PLACEHOLDER } from '../world/catalog';
import { runIndex, type RunIndex } from '../world/release';
import { gatheredFilesOf } from '../world/gathered';
import type { WorldBugzillaBug, WorldFile, WorldGithubIssue, WorldJiraIssue, WorldManifest, WorldRun } from '../world/types';

export interface IndexedObject {
  bucket: string;
  name: string;
  visibleAt: number;
  size: number;
  md5: string;
  /** bytes on disk */
  file: string;
  /** holds REPLAY_PLACEHOLDER, replaced by the server URL when served */
  rewrite: boolean;
  /** deterministic GCS generation (µs) */
  generation: string;
  /** stored gzip-encoded (Content-Encoding: gzip), as Prow uploads the file types its compress_file_types names */
  gzip: boolean;
}

export interface LoadOptions {
  /**
   * extensions of the objects stored gzip-encoded, as Prow's `gcs_configuration.compress_file_types`
   * (OpenShift CI's: txt, log, json, tar, html, yaml); none by default
   */
  compressFileTypes?: string[];
}

/** an object name's extension as Prow matches compress_file_types: after the last dot of its base name */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > name.lastIndexOf('/') ? name.slice(dot + 1) : '';
}

export interface LoadedWorld {
  dir: string;
  manifest: WorldManifest;
  runs: WorldRun[];
  runIndex: RunIndex;
  /** per bucket, sorted by name */
  objects: Map<string, IndexedObject[]>;
  deckJobs: Record<string, unknown>[];
  bugzilla: WorldBugzillaBug[];
  jira: WorldJiraIssue[];
  github: Map<string, WorldGithubIssue[]>;
}

function readJson<T>(dir: string, rel: string): T {
  return JSON.parse(fs.readFileSync(path.join(dir, rel), 'utf8')) as T;
}

/** Every object of a run folder: its own files and, if it has them, the shared gathered ones. */
export function runFiles(manifest: WorldManifest, run: WorldRun): (WorldFile & { blob?: string })[] {
  return run.gathered ? [...run.files, ...gatheredFilesOf(run.ciTest, run.finished, manifest.gathered)] : run.files;
}

export function loadWorld(dir: string, opts: LoadOptions = {}): LoadedWorld {
  const manifest = readJson<WorldManifest>(dir, 'world.json');
  const compressed = new Set(opts.compressFileTypes ?? []);
  const all: IndexedObject[] = [];
  const add = (bucket: string, name: string, o: { visibleAt: number; size: number; md5: string; rewrite?: boolean; blob?: string }) =>
    all.push({
      bucket, name, visibleAt: o.visibleAt, size: o.size, md5: o.md5, file: path.join(dir, o.blob ?? path.join('gcs', bucket, name)), rewrite: !!o.rewrite, generation: '',
      gzip: compressed.size > 0 && compressed.has(extensionOf(name)),
    });
  for (const run of manifest.runs) for (const f of runFiles(manifest, run)) add(run.bucket, `${run.gcsPath}/${f.path}`, f);
  for (const o of manifest.extraObjects) add(manifest.bucket, o.name, o);
  all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const objects = new Map<string, IndexedObject[]>();
  all.forEach((o, i) => {
    o.generation = `${o.visibleAt}${String(i % 1_000_000).padStart(6, '0')}`;
    let list = objects.get(o.bucket);
    if (!list) objects.set(o.bucket, (list = []));
    list.push(o);
  });
  const github = new Map<string, WorldGithubIssue[]>();
  for (const [repo, rel] of Object.entries(manifest.files.github)) github.set(repo, readJson<{ issues: WorldGithubIssue[] }>(dir, rel).issues);
  return {
    dir,
    manifest,
    runs: manifest.runs,
    runIndex: runIndex(manifest.runs),
    objects,
    deckJobs: readJson<Record<string, unknown>[]>(dir, manifest.files.deckJobs),
    bugzilla: readJson<{ bugs: WorldBugzillaBug[] }>(dir, manifest.files.bugzilla).bugs,
    jira: readJson<{ issues: WorldJiraIssue[] }>(dir, manifest.files.jira).issues,
    github,
  };
}

const gzip = promisify(zlib.gzip);
/** objects with the same bytes on disk (gathered files share blobs) are read, and gzipped, once */
const cacheKey = (o: IndexedObject) => (o.rewrite ? `${o.bucket}/${o.name}` : o.file);
const md5Of = (data: Buffer) => crypto.createHash('md5').update(data).digest('base64');

/**
 * An object's bytes as served by a server at `baseUrl` (placeholder replaced), kept in memory up to
 * a budget: GCS costs its clients no CPU, so the stand-in should not spend a core re-reading files
 * (an open, fstat, read and close per download) while an ingest on the same machine is measured.
 */
export class ObjectBytes {
  private readonly cache = new Map<string, { data: Buffer; md5: string }>();
  private cachedBytes = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly budgetBytes = 512 * 1024 * 1024,
  ) {}

  /** the object's content (inflated, for one stored gzip-encoded) */
  async read(o: IndexedObject): Promise<Buffer> {
    return (await this.load(o)).data;
  }

  /** the object as stored: its content, or its content gzip-encoded */
  async stored(o: IndexedObject): Promise<{ data: Buffer; md5: string }> {
    if (!o.gzip) return this.load(o);
    const key = `${cacheKey(o)}\0gzip`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const data = await gzip(await this.read(o));
    // kept whatever the budget: its size and md5 are listed from here
    return this.keep(key, { data, md5: md5Of(data) }, true);
  }

  private async load(o: IndexedObject): Promise<{ data: Buffer; md5: string }> {
    const key = cacheKey(o);
    const hit = this.cache.get(key);
    if (hit) return hit;
    if (o.rewrite) {
      const text = (await fs.promises.readFile(o.file, 'utf8')).split(REPLAY_PLACEHOLDER).join(this.baseUrl);
      const data = Buffer.from(text, 'utf8');
      // Rewritten objects must stay cached (their size and md5 are listed from the cache).
      return this.keep(key, { data, md5: md5Of(data) }, true);
    }
    return this.keep(key, { data: await fs.promises.readFile(o.file), md5: o.md5 }, false);
  }

  private keep(key: string, entry: { data: Buffer; md5: string }, always: boolean): { data: Buffer; md5: string } {
    if (always || this.cachedBytes + entry.data.length <= this.budgetBytes) {
      this.cache.set(key, entry);
      this.cachedBytes += entry.data.length;
    }
    return entry;
  }

  /** size and md5 as listed: those of the object as stored */
  async meta(o: IndexedObject): Promise<{ size: number; md5: string }> {
    if (!o.rewrite && !o.gzip) return { size: o.size, md5: o.md5 };
    const r = await this.stored(o);
    return { size: r.data.length, md5: r.md5 };
  }
}

export function contentTypeFor(name: string): string {
  if (name.endsWith('.json')) return 'application/json';
  if (name.endsWith('.xml')) return 'application/xml';
  if (name.endsWith('.html')) return 'text/html';
  return 'text/plain; charset=utf-8';
}
