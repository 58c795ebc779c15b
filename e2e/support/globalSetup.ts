// Once per e2e run: the sample world ingested into a fresh SQLite database, the built dashboard
// started on it. Test files read what they need with inject() (types in ./context.d.ts).
import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildIsStale } from '../../lib/cli/demo';
import { prepareSampleDatabase, ROOT, startNext, TEST_OUTPUT } from './server';

export default async function setup(project: TestProject) {
  if (buildIsStale(ROOT)) console.warn('[e2e] .next is older than the sources: these tests run the previous build (npm test rebuilds first)');
  fs.mkdirSync(TEST_OUTPUT, { recursive: true });
  const t0 = Date.now();
  const sample = await prepareSampleDatabase();
  let server;
  try {
    server = await startNext({ dbUrl: sample.dbUrl, configFile: sample.configFile });
  } catch (e) {
    await sample.close();
    throw e;
  }
  console.log(`[e2e] sample world ingested and next start (pid ${server.pid}) at ${server.baseUrl} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  project.provide('baseUrl', server.baseUrl);
  project.provide('dbUrl', sample.dbUrl);
  project.provide('configFile', sample.configFile);
  project.provide('replayUrl', sample.replayUrl);
  project.provide('worldDir', sample.worldDir);
  return async () => {
    await server.stop();
    await sample.close();
  };
}
