// Four processes opening a fresh database at once, as a deployment's dashboard, ingest and CLI do
// when started together: every one of them migrates it or finds it migrated, in every round, on
// both engines. Migrations take their lock before creating anything, Prisma's bookkeeping included.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIGRATIONS } from '../../lib/store/generated/migrations';
import { closeDatabase, describeEachDatabase, freshDatabase, open } from '../helpers/databases';

const PROCESSES = 4;
const ROUNDS = 20;

describeEachDatabase('concurrent migrations', (kind) => {
  const children: { child: ChildProcessWithoutNullStreams; answers: AsyncIterator<string> }[] = [];

  beforeAll(() => {
    for (let i = 0; i < PROCESSES; i++) {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../helpers/openDatabaseChild.ts')], { stdio: ['pipe', 'pipe', 'pipe'] });
      children.push({ child, answers: readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]() });
    }
  });
  afterAll(() => {
    for (const { child } of children) child.kill();
  });

  it(`${PROCESSES} processes migrate a fresh database at once, ${ROUNDS} rounds`, async () => {
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const target = await freshDatabase(kind);
      try {
        // the same turn of the event loop: the processes start migrating together
        for (const { child } of children) child.stdin.write(`${target.url}\n`);
        const answers = await Promise.all(children.map(async ({ answers }) => JSON.parse((await answers.next()).value) as { ok?: true; error?: string }));
        failures.push(...answers.filter((a) => a.error).map((a) => `round ${round}: ${a.error}`));
        const db = await open(target);
        try {
          const rows = await db.all<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name');
          expect(rows.map((r) => r.migration_name)).toEqual(MIGRATIONS[kind].map((m) => m.name));
        } finally {
          await closeDatabase(db);
        }
      } finally {
        await target.drop();
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
