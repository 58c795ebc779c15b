// An answer thread (lib/server/answerPool.ts): answers one request at a time on its own database
// connection and verdict caches, within the request's budget; the abort flag in shared memory says
// when the client has gone.
import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { Budget } from '../budget';
import type { AnswerReply, AnswerRequest } from './answerPool';
import { getConfig, getDb } from './context';
import { jsonText } from './jsonText';
import { runAnswer } from './recentAnswers';

// An answer computed at OpenShift's scale leaves a few hundred MB of garbage, and V8 grows the heap
// for the next one rather than collect it, giving the memory back only after a minute of quiet:
// three hot lists in a row took the server from 0.9 to 1.6 GB. So once an answer has left the heap
// GROWTH_BYTES above what was live after the last collection, it is collected before the next
// answer (a few hundred ms, after an answer that took seconds).
const GROWTH_BYTES = 128 * 1024 * 1024;
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
let liveAfterCollection = 0;
function collectIfGrown(): void {
  if (v8.getHeapStatistics().total_heap_size < liveAfterCollection + GROWTH_BYTES) return;
  collectGarbage();
  liveAfterCollection = v8.getHeapStatistics().used_heap_size;
}

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
  collectIfGrown();
});
