// The connections buildcop opens to PostgreSQL: JIT compilation off on every one of the pool (our
// reads are index ranges summed; compiling them cost more than running them).
import { expect, it } from 'vitest';
import { closeDatabase, describeOnPostgres, freshDatabase, open } from '../helpers/databases';

describeOnPostgres('PostgreSQL connections', () => {
  it('have JIT compilation off, every one of the pool', async () => {
    const t = await freshDatabase('postgres');
    const db = await open(t);
    try {
      // eight at once: the pool opens as many connections
      const settings = await Promise.all(Array.from({ length: 8 }, () => db.rows("SELECT current_setting('jit'), pg_sleep(0.05)")));
      expect(settings.map((rows) => rows[0][0])).toEqual(Array(8).fill('off'));
    } finally {
      await closeDatabase(db);
      await t.drop();
    }
  });
});
