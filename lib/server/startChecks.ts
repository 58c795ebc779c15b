// What the server checks as it starts (imported by instrumentation.ts): a configuration it must not
// serve with ends it with the reason, instead of a server that half works.
import { adminTokenProblem } from './auth';

const problem = adminTokenProblem();
if (problem) {
  console.error(`buildcop: refusing to start: ${problem}`);
  process.exit(1);
}
