// What e2e/support/globalSetup.ts provides to every e2e test file (read with inject()).
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the running dashboard, e.g. http://127.0.0.1:41234 */
    baseUrl: string;
    /** its SQLite database (file:...) */
    dbUrl: string;
    /** its buildcop.config.json (every source the replay server) */
    configFile: string;
    replayUrl: string;
    worldDir: string;
  }
}
