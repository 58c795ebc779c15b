// A process that opens (and so migrates) each database URL it reads on stdin, one per line, and
// answers a JSON line: {"ok": true} or {"error": "..."}. Several at once race to migrate a fresh
// database, as processes started together on a new deployment do (tests/store/concurrentMigrations).
import readline from 'node:readline';
import { closeDatabase, openDatabase } from '../../lib/store/db';

const lines = readline.createInterface({ input: process.stdin });
for await (const url of lines) {
  try {
    await closeDatabase(await openDatabase(url));
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ error: (e as Error).message })}\n`);
  }
}
