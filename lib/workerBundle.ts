// A worker thread's code as one plain-JS file, bundled by esbuild at first use. A worker that loaded
// the TypeScript sources through tsx spent about 0.5 s of CPU compiling them on a loader thread;
// esbuild bundles the same sources in about 40 ms. Bundled once per process from the current sources
// and named by content (written under a temporary name, then renamed), so it is never stale and
// concurrent processes never read a half-written file. Used by ingest's reader thread and the web
// server's answer threads; works from the sources (tsx, vitest) and under `next start`, whose bundle
// does not hold the worker's entry: it is found in the project's lib/ folder.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bundles = new Map<string, Promise<string>>();

/** The project's root: the folder above lib/ holding this file, else the working directory (`next start` runs there). */
function projectRoot(): string {
  try {
    const here = path.dirname(fileURLToPath(import.meta.url));
    if (fs.existsSync(path.join(/*turbopackIgnore: true*/ here, 'workerBundle.ts'))) return path.resolve(here, '..');
  } catch {
    // not a file URL (bundled): fall through
  }
  return process.cwd();
}

/**
 * The bundled file of `entry` (a path under the project root, e.g. "lib/server/answerWorkerMain.ts");
 * its imports of packages resolve from the project's node_modules. `name` prefixes the file name.
 */
export function bundledWorker(entry: string, name: string): Promise<string> {
  let file = bundles.get(entry);
  if (!file) {
    file = bundle(entry, name);
    file.catch(() => bundles.delete(entry)); // tried again next time
    bundles.set(entry, file);
  }
  return file;
}

async function bundle(entry: string, name: string): Promise<string> {
  const esbuild = await import('esbuild');
  const root = projectRoot();
  const out = await esbuild.build({
    entryPoints: [path.join(/*turbopackIgnore: true*/ root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0].contents;
  // inside the project, so that the bundle's imports of packages resolve from node_modules
  const dir = path.join(/*turbopackIgnore: true*/ root, 'node_modules/.cache/buildcop');
  const file = path.join(/*turbopackIgnore: true*/ dir, `${name}-${crypto.createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
    // bundles of earlier sources, unless just written (another process may be about to load it)
    for (const old of fs.readdirSync(dir)) {
      const p = path.join(/*turbopackIgnore: true*/ dir, old);
      try {
        if (old.startsWith(`${name}-`) && p !== file && Date.now() - fs.statSync(p).mtimeMs > 3_600_000) fs.rmSync(p, { force: true });
      } catch {
        // gone already (another process cleaned up)
      }
    }
  }
  return file;
}
