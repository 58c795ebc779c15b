// The README and docs/ say only what exists: every relative link (and its #anchor) resolves, every
// `npm run X`, `buildcop X` and file they name is there, every /api route has its route file, and the
// README's CLI table lists exactly the commands of the CLI's command table, and its configuration
// table every key the configuration's validator knows.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../lib/cli/commands';
import { ConfigError, validateConfig } from '../lib/config';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;
const INLINE_CODE = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/** The text outside code: links in code are not links. */
const prose = (md: string) => md.replace(FENCE, '').replace(INLINE_CODE, '');

/** What sits in code: fenced blocks and inline spans, where commands are written. */
function codeOf(md: string): string[] {
  const out: string[] = [];
  const rest = md.replace(FENCE, (block) => {
    out.push(block);
    return '';
  });
  for (const m of rest.matchAll(INLINE_CODE)) out.push(m[2]);
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as '-', repeats numbered. */
function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of md.replace(FENCE, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Inline links and images, reference definitions and <img src>, outside code. */
function linksOf(md: string): string[] {
  const text = prose(md);
  const out: string[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) out.push(m[1]);
  for (const m of text.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)) out.push(m[1]);
  return out;
}

/** The relative links of a file that do not resolve (file or folder, and the anchor in a .md). */
function brokenLinks(file: string, md: string, exists = (p: string) => fs.existsSync(p), readMd = (p: string) => fs.readFileSync(p, 'utf8')): string[] {
  const broken: string[] = [];
  for (const link of linksOf(md)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
    const [target, anchor] = link.split('#', 2) as [string, string | undefined];
    const resolved = target ? path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(target)) : path.join(ROOT, file);
    if (!exists(resolved)) {
      broken.push(`${link} (no ${path.relative(ROOT, resolved)})`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md')) broken.push(`${link} (an anchor into a file that is not Markdown)`);
    else if (!anchorsOf(target ? readMd(resolved) : md).has(anchor)) broken.push(`${link} (no heading #${anchor} in ${path.relative(ROOT, resolved)})`);
  }
  return broken;
}

const SCRIPTS: Record<string, string> = JSON.parse(read('package.json')).scripts;
const NPM_BUILTINS = new Set(['install', 'i', 'ci']);

/** The commands a document names in code that do not exist. */
function missingCommands(md: string): string[] {
  const missing: string[] = [];
  for (const code of codeOf(md)) {
    for (const m of code.matchAll(/(?:^|[\s(;&|])npm (run )?([\w:.-]+)/g)) {
      const [run, name] = [m[1], m[2]];
      if (run ? !Object.hasOwn(SCRIPTS, name) : !NPM_BUILTINS.has(name) && !Object.hasOwn(SCRIPTS, name)) missing.push(`npm ${run ?? ''}${name}`);
    }
    for (const m of code.matchAll(/(?:^|[\s(;&|])(?:npx )?buildcop ([a-z][\w-]*)/g)) {
      if (!Object.hasOwn(COMMANDS, m[1])) missing.push(`buildcop ${m[1]}`);
    }
    for (const m of code.matchAll(/(?:^|[\s(;&|])(?:npx )?(?:tsx|node) ((?:bench|scripts|bin|lib)\/[\w./-]+\.(?:ts|mjs|js))/g)) {
      if (!fs.existsSync(path.join(ROOT, m[1]))) missing.push(m[1]);
    }
  }
  return missing;
}

/** Where an /api path is served: app/api/.../route.ts, a {param} or [param] matching any [folder]. */
function routeFileExists(route: string): boolean {
  let dirs = [path.join(ROOT, 'app')];
  for (const seg of route.replace(/^\//, '').replace(/\/$/, '').split('/')) {
    const param = /^[{[][^}\]]+[}\]]$/.test(seg);
    dirs = dirs.flatMap((d) => {
      if (!fs.existsSync(d)) return [];
      if (!param) return fs.existsSync(path.join(d, seg)) ? [path.join(d, seg)] : [];
      return fs.readdirSync(d).filter((e) => /^\[[^\]]+\]$/.test(e)).map((e) => path.join(d, e));
    });
  }
  return dirs.some((d) => fs.existsSync(path.join(d, 'route.ts')));
}

/** The /api routes a document names (in code or prose) without a route file. */
function missingRoutes(md: string): string[] {
  const routes = new Set([...md.matchAll(/(?<![\w./-])\/api\/[\w.{}[\]/-]*[\w}\]]/g)].map((m) => m[0]));
  return [...routes].filter((r) => !routeFileExists(r));
}

/** The first cells of the table under the README's "## CLI" heading: the command names. */
function cliTableCommands(md: string): string[] {
  const section = md.split(/^## /m).find((s) => s.startsWith('CLI'));
  expect(section, 'a "## CLI" section in README.md').toBeDefined();
  const names: string[] = [];
  for (const row of section!.split('\n').filter((l) => l.startsWith('| `'))) {
    const cell = row.slice(1).split(/(?<!\\)\|/)[0];
    for (const m of cell.matchAll(/`([a-z][\w-]*)/g)) names.push(m[1]);
  }
  return names;
}

/** The keys the validator knows where `raw` holds an unknown one, from its message ("known: a, b"). */
function knownKeys(raw: unknown): string[] {
  try {
    validateConfig(raw);
  } catch (e) {
    const known = e instanceof ConfigError && /\(known: ([^)]*)\)/.exec(e.message);
    if (known) return known[1].split(', ');
  }
  throw new Error(`no unknown-key error for ${JSON.stringify(raw)}`);
}

/** Every key of the configuration as [section, key] (key '' for a section that is a value itself). */
function configKeys(): [string, string][] {
  const prow = { url: 'https://prow.example.com' };
  const out: [string, string][] = [];
  for (const section of knownKeys({ prow, zzz: 1 })) {
    const inner = section === 'promotion' || section === 'alerts' ? [{ zzz: 1 }] : section === 'owners' ? { sig: { zzz: 1 } } : { zzz: 1 };
    const raw = section === 'prow' ? { prow: inner } : { prow, [section]: inner };
    let keys: string[];
    try {
      keys = knownKeys(raw);
    } catch {
      keys = ['']; // a value, not an object: ignoreTests, retention
    }
    for (const k of keys) out.push([section, k]);
  }
  return out;
}

/** The configuration keys the README's configuration table does not name (its first cells). */
function undocumentedConfigKeys(md: string): string[] {
  const section = md.split(/^## /m).find((s) => s.startsWith('Configuration')) ?? '';
  const cells = section.split('\n').filter((l) => l.startsWith('| `')).map((row) => row.slice(1).split(/(?<!\\)\|/)[0]);
  return configKeys()
    .filter(([s, k]) => !cells.some((c) => new RegExp(`\`${s}(\\b|\\.|\\[)`).test(c) && (!k || c.includes(`\`${s}.${k}\``) || c.includes(`\`.${k}\``) || c.includes(`\`${k}\``))))
    .map(([s, k]) => (k ? `${s}.${k}` : s));
}

describe('the README and docs/', () => {
  it.each(DOCS)('%s: every relative link resolves, anchors included', (file) => {
    expect(brokenLinks(file, read(file))).toEqual([]);
  });

  it.each(DOCS)('%s: every npm script, buildcop command and script file named exists', (file) => {
    expect(missingCommands(read(file))).toEqual([]);
  });

  it.each(DOCS)('%s: every /api route named has its route file', (file) => {
    expect(missingRoutes(read(file))).toEqual([]);
  });

  it("lists exactly the CLI's commands in the README's CLI table", () => {
    const listed = cliTableCommands(read('README.md'));
    expect(listed.filter((c) => !Object.hasOwn(COMMANDS, c)), 'listed but not a command').toEqual([]);
    expect(Object.keys(COMMANDS).filter((c) => !listed.includes(c)), 'commands missing from the table').toEqual([]);
  });

  it('names every configuration key in the README', () => {
    expect(configKeys().length).toBeGreaterThan(30);
    expect(undocumentedConfigKeys(read('README.md'))).toEqual([]);
  });

  it('shows the screenshots and links the docs from the README', () => {
    const links = linksOf(read('README.md'));
    for (const f of ['docs/hotlist.png', 'docs/test-page.png', 'docs/architecture.md', 'docs/verdicts.md', 'docs/benchmarks.md', 'docs/CONVENTIONS.md']) expect(links, f).toContain(f);
  });
});

describe('the checks themselves', () => {
  const md = [
    '# Top',
    '## Two words',
    'See [here](docs/nowhere.md), [there](README.md#no-such-heading), [ok](#two-words), [web](https://example.com/x).',
    '![shot](docs/missing.png)',
    '`[not a link](nowhere.md)` and `npm run no-such-script`, `npx buildcop no-such-command`, `npx tsx bench/none.ts`, `npm test`.',
    '```sh',
    'npm install && npm run demo',
    'buildcop hotlist --window 24h',
    '```',
    'GET /api/nowhere and /api/tests/{id} and /api/runs/[job]/[buildId].',
  ].join('\n');

  it('finds the broken links and anchors, not the good ones or those in code', () => {
    expect(brokenLinks('README.md', md)).toEqual([
      'docs/nowhere.md (no docs/nowhere.md)',
      'README.md#no-such-heading (no heading #no-such-heading in README.md)',
      'docs/missing.png (no docs/missing.png)',
    ]);
  });

  it('finds the commands and routes that do not exist, not those that do', () => {
    expect(missingCommands(md)).toEqual(['npm run no-such-script', 'buildcop no-such-command', 'bench/none.ts']);
    expect(missingRoutes(md)).toEqual(['/api/nowhere']);
  });

  it("makes GitHub's anchors", () => {
    expect([...anchorsOf('# A `code` title: with (punctuation)!\n## Same\n## Same\n```\n# not a heading\n```')]).toEqual(['a-code-title-with-punctuation', 'same', 'same-1']);
  });
});
