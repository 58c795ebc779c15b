// What the web server's pages and API routes share: the database and the configuration, read
// from DATABASE_URL and BUILDCOP_CONFIG as `npm start` documents.
import { loadConfigIfPresent, type Config } from '../config';
import { openDatabase, type Database } from '../store/db';

export function getDb(): Promise<Database> {
  return openDatabase();
}

let cachedConfig: { at: number; config: Config | undefined } | undefined;

/** The configuration (re-read at most every 10 s), or undefined when there is none. */
export function getConfig(): Config | undefined {
  if (!cachedConfig || Date.now() - cachedConfig.at > 10_000) {
    cachedConfig = { at: Date.now(), config: loadConfigIfPresent(process.env.BUILDCOP_CONFIG) };
  }
  return cachedConfig.config;
}
