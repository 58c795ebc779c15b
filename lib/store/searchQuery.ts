// Candidates from the search index (lib/store/searchIndex.ts): the runs (or bugs) whose documents
// hold every gram of a literal, through the databases' own trigram indexes, a gram's token being one
// trigram (lib/store/searchGrams.ts): SQLite FTS5 (a query of single trigrams: detail=none documents
// hold no positions) and PostgreSQL pg_trgm (LIKE '%abc%' per token, rechecked on the document's
// text, where three letters or digits can only be a token).
import type { Sql } from './db';
import { SEARCH_KIND, type SearchKind } from './searchIndex';
import { literalTokens, tokenText } from './searchGrams';

/** A candidate: a run (kinds logs and failures) or a bug, with its start (0 for a bug). */
export interface Candidate {
  id: number;
  started: number;
}

export interface CandidateScope {
  kind: SearchKind;
  /** runs started in [from, to) (ignored for bugs) */
  from: number;
  to: number;
  /** the jobs kept by the job filter; null for all */
  jobs: ReadonlySet<number> | null;
}

/** Grams of a literal asked at most (spread over it): enough to be selective, a bounded number of lookups. */
const MAX_GRAMS = 16;

function usable(lit: string): number[] {
  const tokens = literalTokens(lit);
  if (tokens.length <= MAX_GRAMS) return tokens;
  const step = tokens.length / MAX_GRAMS;
  return Array.from({ length: MAX_GRAMS }, (_, i) => tokens[Math.floor(i * step)]);
}

/** SQL (with its parameters) selecting the documents holding all these tokens. */
function holding(sql: Sql, tokens: number[]): { where: string; params: string[] } {
  if (sql.dialect === 'postgres') return { where: tokens.map(() => 'd.grams LIKE ?').join(' AND '), params: tokens.map((t) => `%${tokenText(t)}%`) };
  return { where: 'd.id IN (SELECT rowid FROM search_doc_fts WHERE search_doc_fts MATCH ?)', params: [tokens.map((t) => `"${tokenText(t)}"`).join(' AND ')] };
}

const idList = (ids: Iterable<number>) => [...ids].map((id) => String(Math.trunc(id))).join(', ') || 'NULL';

/** The own documents (runs', bugs') of the scope, with `extra` conditions. */
async function ownDocs(sql: Sql, scope: CandidateScope, jobs: { in?: number[]; notIn?: number[] }, extra?: { where: string; params: string[] }): Promise<Candidate[]> {
  const isBug = scope.kind === 'bugs';
  const conds = ['d.kind = ?', 'd.base = 0'];
  const params: (string | number)[] = [SEARCH_KIND[scope.kind]];
  if (!isBug) {
    conds.push('d.started >= ?', 'd.started < ?');
    params.push(scope.from, scope.to);
  }
  if (jobs.in) conds.push(`d.job_id IN (${idList(jobs.in)})`);
  if (jobs.notIn?.length) conds.push(`d.job_id NOT IN (${idList(jobs.notIn)})`);
  if (extra) {
    conds.push(extra.where);
    params.push(...extra.params);
  }
  const rows = await sql.rows(`SELECT ${isBug ? 'd.bug_pk' : 'd.run_id'}, d.started FROM search_doc d WHERE ${conds.join(' AND ')}`, params);
  return rows.map(([id, started]) => ({ id: Number(id), started: Number(started) }));
}

/**
 * The documents of the scope that may hold `lit` (normalised, lib/store/searchGrams.ts): those whose
 * job's base and own document hold its grams between them. Undefined when the literal is too short to
 * say anything (every document is a candidate).
 */
export async function candidatesFor(sql: Sql, lit: string, scope: CandidateScope): Promise<Candidate[] | undefined> {
  const codes = usable(lit);
  if (!codes.length) return undefined;
  const kind = SEARCH_KIND[scope.kind];
  // which jobs' bases hold each gram
  const inBase = new Map<number, Set<number>>();
  if (scope.kind !== 'bugs') {
    for (const c of codes) {
      const h = holding(sql, [c]);
      for (const [jobId] of await sql.rows(`SELECT DISTINCT d.job_id FROM search_doc d WHERE d.kind = ? AND d.base = 1 AND ${h.where}`, [kind, ...h.params])) {
        const job = Number(jobId);
        let set = inBase.get(job);
        if (!set) inBase.set(job, (set = new Set()));
        set.add(c);
      }
    }
  }
  // jobs grouped by the grams their bases lack: one query per group
  const groups = new Map<string, { missing: number[]; jobs: number[] }>();
  for (const [job, held] of inBase) {
    if (scope.jobs && !scope.jobs.has(job)) continue;
    const missing = codes.filter((c) => !held.has(c));
    const key = missing.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { missing, jobs: [] }));
    g.jobs.push(job);
  }
  const out: Candidate[] = [];
  for (const g of groups.values()) out.push(...(await ownDocs(sql, scope, { in: g.jobs }, g.missing.length ? holding(sql, g.missing) : undefined)));
  // the jobs whose bases hold none of them: their own documents must hold them all
  const others = scope.jobs ? { in: [...scope.jobs].filter((j) => !inBase.has(j)) } : { notIn: [...inBase.keys()] };
  out.push(...(await ownDocs(sql, scope, others, holding(sql, codes))));
  return out;
}

/** Every document of the scope (a pattern with no literal to look for). */
export function allCandidates(sql: Sql, scope: CandidateScope): Promise<Candidate[]> {
  return ownDocs(sql, scope, scope.jobs ? { in: [...scope.jobs] } : {});
}
