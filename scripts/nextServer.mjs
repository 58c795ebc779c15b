// The environment `next start` runs in, wherever buildcop starts it (npm start, the demo, the
// browser tests). Node answers 431 to a request whose line and headers pass 16 KB, and a page's
// address holds a job's or a test's name: Prow sets no bound on a job name, so the bound is 512 KB
// (a name of 100,000 characters, percent-encoded, and the headers).
export const MAX_HTTP_HEADER_BYTES = 512 * 1024;

/** `env` plus what `next start` needs: no telemetry, and the header bound in NODE_OPTIONS. */
export function nextServerEnv(env) {
  const options = `${env.NODE_OPTIONS ?? ''} --max-http-header-size=${MAX_HTTP_HEADER_BYTES}`.trim();
  return { ...env, NEXT_TELEMETRY_DISABLED: '1', NODE_OPTIONS: options };
}
