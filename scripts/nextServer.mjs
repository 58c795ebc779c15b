// The environment `next start` runs in, wherever buildcop starts it (npm start, the demo, the
// browser tests). Node answers 431 to a request whose line and headers pass 16 KB, and a page's
// address holds a job's or a test's name: Prow sets no bound on a job name, so the bound is 512 KB
// (a name of 100,000 characters, percent-encoded, and the headers).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const MAX_HTTP_HEADER_BYTES = 512 * 1024;

/** The preload that tells route handlers which address a request came from (see peerAddress.mjs). */
const PEER_ADDRESS = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'peerAddress.mjs')).href;

/**
 * `env` plus what `next start` needs: no telemetry, and in NODE_OPTIONS the header bound and the
 * preload that gives requests their peer address.
 */
export function nextServerEnv(env) {
  const options = `${env.NODE_OPTIONS ?? ''} --max-http-header-size=${MAX_HTTP_HEADER_BYTES} --import=${PEER_ADDRESS}`.trim();
  return { ...env, NEXT_TELEMETRY_DISABLED: '1', NODE_OPTIONS: options };
}
