// Worker-thread entry of the assembler (lib/ingest/assembler.ts): loads the TypeScript sources
// through tsx, as bin/buildcop.mjs does, then serves assemble requests in order.
import { register } from 'tsx/esm/api';

register();
await import('./assemblerWorkerMain.ts');
