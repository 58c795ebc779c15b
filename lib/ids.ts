// Public ids: derived from names only, so a link in a bug tracker survives a database rebuild.
import crypto from 'node:crypto';

/** The stable id of a test: 16 hex digits of SHA-256 of its full name. */
export function testId(name: string): string {
  return crypto.createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 16);
}

export function isTestId(s: string): boolean {
  return /^[0-9a-f]{16}$/.test(s);
}
