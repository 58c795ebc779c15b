// Answers for "now" (no `at`) asked again while the data has not changed are served from memory for
// up to a minute: a buildcop's reloads and a team opening the same link cost one computation, not
// one each (at OpenShift's scale a hot list for now reads seconds of rollups and edges). The key holds
// what an answer depends on besides its parameters: the data version ingest bumps with every write
// of runs (lib/store/rollups.ts), the latest ingest pass, and the bug links and bugs; an answer with
// `at` is never kept (it is cheap to recompute only once: the verdict caches key on `at`). Partial
// answers and errors are not kept.
import type { Database } from '../store/db';
import { dataState } from '../store/dataState';
import { standingAnswer } from '../answers/standing';
import { ANSWERS, type AnswerContext, type AnswerName, type AnswerParams } from './answers';

/** How long an answer for now stays: its `to` is at most this old. */
export const RECENT_MS = 60_000;
// a hot list at OpenShift's scale is tens of MB as objects and text: a few dozen views at most
const MAX_KEPT = 24;
/** Answers that read the window's history; promotion reads the release controller's tags, which change without a data version */
const KEPT: ReadonlySet<AnswerName> = new Set<AnswerName>(['hotlist', 'causes', 'signature', 'test', 'job', 'jobs']);

const kept = new Map<string, { since: number; value: Promise<unknown> }>();

/**
 * ANSWERS[name] for these parameters, from memory when asked for now within RECENT_MS of the same
 * data; else the standing answer the ingester stored for it (lib/answers/standing.ts), if any.
 */
export async function runAnswer(name: AnswerName, db: Database, params: AnswerParams, ctx: AnswerContext, opts: { json?: boolean } = {}): Promise<unknown> {
  const fn = ANSWERS[name] as (db: Database, p: AnswerParams, c: AnswerContext) => Promise<unknown>;
  if (!KEPT.has(name) || params.at) return fn(db, params, ctx);
  const shown = Object.entries(params).filter(([k, v]) => v !== undefined && k !== 'budget').sort(([a], [b]) => (a < b ? -1 : 1));
  const key = `${db.url}|${name}|${opts.json ? 'json' : ''}|${JSON.stringify(shown)}|${await dataState(db, { pass: true })}`;
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && now - hit.since < RECENT_MS) return hit.value;
  for (const [k, v] of kept) if (now - v.since >= RECENT_MS) kept.delete(k);
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  // for JSON, a standing answer stays its text: no parse, and a few MB kept rather than tens as objects
  const value = standingAnswer(db, name, params, ctx.config?.ignoreTests, Date.now(), opts.json).then((v) => v ?? fn(db, params, ctx));
  kept.set(key, { since: now, value });
  value.then(
    (v) => (v as { partial?: unknown } | null)?.partial && kept.delete(key),
    () => kept.delete(key),
  );
  return value;
}
