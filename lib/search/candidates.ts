// The documents a pattern may match, from its required literals (lib/search/literals.ts) through the
// trigram index (lib/store/searchQuery.ts): AND of literals intersects, OR unites, and a pattern with
// nothing to look for has every document of the scope as a candidate, newest first.
import type { Sql } from '../store/db';
import { allCandidates, candidatesFor, type Candidate, type CandidateScope } from '../store/searchQuery';
import type { LiteralQuery } from './literals';

type Found = Map<number, number> | undefined; // id -> started; undefined: every document

async function evaluate(sql: Sql, q: LiteralQuery, scope: CandidateScope): Promise<Found> {
  if ('all' in q) return undefined;
  if ('lit' in q) {
    const found = await candidatesFor(sql, q.lit, scope);
    return found && new Map(found.map((c) => [c.id, c.started]));
  }
  const parts: Map<number, number>[] = [];
  for (const sub of 'and' in q ? q.and : q.or) {
    const f = await evaluate(sql, sub, scope);
    if (f) parts.push(f);
    else if ('or' in q) return undefined;
  }
  if (!parts.length) return undefined;
  if ('or' in q) {
    const out = new Map<number, number>();
    for (const p of parts) for (const [id, s] of p) out.set(id, s);
    return out;
  }
  parts.sort((a, b) => a.size - b.size);
  const [first, ...rest] = parts;
  return new Map([...first].filter(([id]) => rest.every((p) => p.has(id))));
}

/** The candidates of a scope for a literal query, newest first (then by id). */
export async function candidates(sql: Sql, q: LiteralQuery, scope: CandidateScope): Promise<Candidate[]> {
  const found = await evaluate(sql, q, scope);
  const list = found ? [...found].map(([id, started]) => ({ id, started })) : await allCandidates(sql, scope);
  return list.sort((a, b) => b.started - a.started || b.id - a.id);
}
