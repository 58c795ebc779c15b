// The CLI as plain JavaScript: lib/cli/main.ts bundled by esbuild (one chunk per command, loaded only
// when it runs) into node_modules/.cache/buildcop/cli-<digest of the sources>/. Loading the
// TypeScript through tsx cost every call about 0.5 s of CPU (its loader thread, a transform-cache
// lookup per module); the bundle loads in a tenth of that. Rebuilt (about 0.5 s) whenever a source
// file's size or time changed; written under a temporary name and renamed, so concurrent calls never
// read half a bundle.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules/.cache/buildcop');
/** what the CLI's code is made of: any change to these makes a new bundle */
const SOURCES = ['lib', 'scripts/nextServer.mjs', 'package.json'];

/** A digest of every source file's path, size and modification time (about 10 ms for 200 files). */
export function sourcesDigest(root = ROOT) {
  const h = crypto.createHash('sha1');
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e));
    else h.update(`${path.relative(root, p)}\0${st.size}\0${st.mtimeMs}\n`);
  };
  SOURCES.forEach((s) => walk(path.join(root, s)));
  return h.digest('hex').slice(0, 16);
}

/**
 * Each module keeps its own import.meta.url (paths are found from it: the project root, the worker's
 * sources), as if it had not been bundled.
 */
const keepMetaUrl = {
  name: 'keep-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      const contents = source.includes('import.meta.url') ? source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)) : source;
      return { contents, loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js' };
    });
  },
};

/** The bundled CLI's entry (main.js), built first when the sources changed since. */
export async function cliBundle(root = ROOT) {
  const dir = path.join(CACHE, `cli-${sourcesDigest(root)}`);
  const entry = path.join(dir, 'main.js');
  if (fs.existsSync(entry)) return entry;
  const esbuild = await import('esbuild');
  const tmp = `${dir}.${process.pid}.tmp`;
  await esbuild.build({
    entryPoints: [path.join(root, 'lib/cli/main.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir: tmp,
    logLevel: 'silent',
    plugins: [keepMetaUrl],
  });
  // the packages resolve from the project's node_modules: the bundle lives inside it
  try {
    fs.renameSync(tmp, dir);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(entry)) throw e; // else another call built the same bundle meanwhile
  }
  // bundles of earlier sources, unless recent (another call may be running one)
  for (const old of fs.readdirSync(CACHE)) {
    const p = path.join(CACHE, old);
    try {
      if (old.startsWith('cli-') && p !== dir && Date.now() - fs.statSync(p).mtimeMs > 3_600_000) fs.rmSync(p, { recursive: true, force: true });
    } catch {
      // gone already
    }
  }
  return entry;
}
