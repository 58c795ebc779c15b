// The route table (API_ROUTES) is the API: every route file under app/api is in it with each method it
// exports, every entry has its file, and a route serving an answer serves the one the table names.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, openApiDocument } from '../../lib/api/openapi';
import { ANSWERS } from '../../lib/server/answers';

const ROOT = path.resolve(__dirname, '../..');
const API_DIR = path.join(ROOT, 'app/api');

/** Route files by their path as OpenAPI writes it (app/api/tests/[id]/route.ts: /api/tests/{id}). */
function routeFiles(dir = API_DIR): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) for (const [k, v] of routeFiles(p)) out.set(k, v);
    else if (e.name === 'route.ts') out.set(`/api/${path.relative(API_DIR, dir).split(path.sep).map((s) => s.replace(/^\[(.+)\]$/, '{$1}')).join('/')}`, fs.readFileSync(p, 'utf8'));
  }
  return out;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const exported = (source: string) => METHODS.filter((m) => new RegExp(`export (async )?function ${m}\\b|export const ${m}\\b`).test(source));

describe('the route table', () => {
  const files = routeFiles();

  it('holds every route file under app/api, with the methods it exports, and nothing else', () => {
    expect(files.size).toBeGreaterThan(10);
    expect([...files.keys()].sort()).toEqual(API_ROUTES.map((r) => r.path).sort());
    for (const r of API_ROUTES) {
      const methods = exported(files.get(r.path)!);
      expect(methods.length, r.path).toBeGreaterThan(0);
      expect(Object.keys(r.spec).filter((k) => k !== 'parameters').sort(), r.path).toEqual(methods.map((m) => m.toLowerCase()).sort());
    }
  });

  it('names answers that exist, and each route serving one serves that one', () => {
    for (const r of API_ROUTES.filter((x) => x.answer)) {
      expect(Object.keys(ANSWERS), r.path).toContain(r.answer);
      const src = files.get(r.path)!;
      const served = /answerRoute\('([^']+)'\)/.exec(src)?.[1] ?? /answerRequest\('([^']+)'/.exec(src)?.[1];
      expect([r.path, r.answer], r.path).toContain(served);
    }
  });

  it('is what /api/openapi.json documents', () => {
    expect(Object.keys(openApiDocument().paths).sort()).toEqual(API_ROUTES.map((r) => r.path).sort());
  });
});
