// Answers on answer threads (lib/server/answerPool.ts), on the ingested sample world: the same answer
// as the lib function on this thread, a query error keeps its 400, a budget too small to finish in
// gives a partial answer, a client that goes away stops the work, and answering inline
// (BUILDCOP_ANSWER_THREADS=0) gives the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery, search } from '../../lib/answers/search';
import { answer, answerThreads } from '../../lib/server/answerPool';
import { closeDatabase, openDatabase } from '../../lib/store/db';
import { END_ISO, worldDatabaseUrl } from '../helpers/world';

let saved: string | undefined;

beforeAll(async () => {
  saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = await worldDatabaseUrl();
}, 300_000);
afterAll(() => {
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
});

describe('answers on answer threads', () => {
  it('are the lib function\'s answer, and errors keep their status', async () => {
    const params = { q: 'Will promote', at: END_ISO, in: 'logs' };
    const db = await openDatabase(process.env.DATABASE_URL);
    try {
      expect(await answer('search', params)).toEqual(await search(db, parseSearchQuery(params)));
    } finally {
      await closeDatabase(db);
    }
    await expect(answer('search', { q: '(a)\\1' })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/backreferences/) });
    await expect(answer('test', { id: '0000000000000000' })).rejects.toMatchObject({ status: 404 });
  });

  it('stop with a partial answer when the budget is spent, or when the client has gone', async () => {
    const spent = await answer('search', { q: '.', at: END_ISO }, { budgetMs: 0 });
    expect(spent.partial).toMatchObject({ reason: 'time budget' });
    expect(spent.truncated).toBe(true);
    const gone = new AbortController();
    const asked = answer('search', { q: '.', at: END_ISO }, { signal: gone.signal });
    gone.abort();
    const left = await asked.then(
      (r) => r.partial?.reason,
      (e: Error) => e.message,
    );
    // stopped at its first check, or not even started
    expect(['client went away', 'the client went away']).toContain(left);
  });

  it('are the same answered inline, as with BUILDCOP_ANSWER_THREADS=0', async () => {
    expect(answerThreads({ BUILDCOP_ANSWER_THREADS: '0' })).toBe(0);
    expect(answerThreads({ BUILDCOP_ANSWER_THREADS: '3' })).toBe(3);
    const params = { at: END_ISO, window: '7d', limit: '10' };
    const threaded = await answer('hotlist', params);
    process.env.BUILDCOP_ANSWER_THREADS = '0';
    try {
      expect(await answer('hotlist', params)).toEqual(threaded);
    } finally {
      delete process.env.BUILDCOP_ANSWER_THREADS;
    }
  });
});
