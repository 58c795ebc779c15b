// Whether the database can be reached now, asked by the proxy before a page renders. Next.js gives a
// page only 200, 404, 401, 403 or 500 (its render streams, and notFound()/forbidden()/unauthorized()
// are all it can interrupt with); a database that cannot be reached is a 503 with Retry-After, as
// the API answers, so the proxy answers it before the page starts. One `SELECT 1` per page request:
// nothing on SQLite, a round trip on PostgreSQL, next to the page's own dozen.
import { isDatabaseUnavailable } from '../store/db';
import { getDb } from './context';

export async function databaseUnavailable(): Promise<boolean> {
  try {
    await (await getDb()).get('SELECT 1');
    return false;
  } catch (e) {
    // any other error is the page's to show
    return isDatabaseUnavailable(e);
  }
}
