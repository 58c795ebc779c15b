// One measurement in a process of its own, as `buildcop ingest --once` runs (every function cold):
// `floor` downloads what ingest would, `ingest` runs one pass into a new SQLite database, or into the
// emptied PostgreSQL database given. Prints the figures as one JSON line. Run by bench/ingest.ts; the
// replay server must be serving already.
//   tsx bench/freshProcess.ts floor|ingest <config JSON> [postgresql://...]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateConfig } from '../lib/config';
import { ingestPass } from '../lib/ingest/pass';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { emptyDatabase } from './database';
import { downloadFloor } from './downloadFloor';

const [mode, configJson, pgUrl] = process.argv.slice(2);
const config = validateConfig(JSON.parse(configJson));
if (mode === 'floor') {
  console.log(JSON.stringify(await downloadFloor(config)));
} else if (mode === 'ingest') {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-fresh-'));
  try {
    const db = await openDatabase(pgUrl ?? `file:${path.join(tmp, 'ingest.db')}`); // migrated before the pass starts, as by the CLI
    if (pgUrl) await emptyDatabase(db);
    const s = await ingestPass({ config, db, morePasses: false });
    await closeDatabase(db);
    console.log(JSON.stringify({ seconds: s.seconds, runs: s.runsNew + s.runsUpdated, testResults: s.testResults }));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
} else {
  throw new Error(`mode must be floor or ingest, not ${mode}`);
}
