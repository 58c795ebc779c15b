// An answer thread (lib/server/answerPool.ts): answers one request at a time on its own database
// connection and verdict caches, within the request's budget; the abort flag in shared memory says
// when the client has gone.
import { parentPort } from 'node:worker_threads';
import { Budget } from '../budget';
import type { AnswerReply, AnswerRequest } from './answerPool';
import { getConfig, getDb } from './context';
import { jsonText } from './jsonText';
import { runAnswer } from './recentAnswers';

parentPort!.on('message', async (m: AnswerRequest) => {
  const flag = new Int32Array(m.abort);
  const left = m.budgetMs - (Date.now() - m.enqueuedAt);
  const budget = new Budget(Math.max(0, left), { get aborted() { return Atomics.load(flag, 0) === 1; } });
  let reply: AnswerReply;
  try {
    const value = await runAnswer(m.name, await getDb(), m.params, { budget, config: getConfig() }, { json: m.json });
    reply = { id: m.id, ok: true, value: m.json ? jsonText(value) : value };
  } catch (e) {
    const err = e as Error & { status?: number; code?: unknown; expose?: boolean };
    reply = { id: m.id, ok: false, error: { message: err.message, name: err.name, status: err.status, code: typeof err.code === 'string' ? err.code : undefined, expose: err.expose } };
  }
  parentPort!.postMessage(reply);
});
