// Access to the real public CI files in ../shared/fixtures. They are other projects' files, so they
// are read in place, never copied. Tests that need them call `describeFixtures`, which on a clone
// without ../shared prints that they did not run instead of failing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';

export const FIXTURES_DIR = path.resolve(__dirname, '../../shared/fixtures');
export const haveFixtures = fs.existsSync(path.join(FIXTURES_DIR, 'SOURCES.md'));

export function fixturePath(rel: string): string {
  return path.join(FIXTURES_DIR, rel);
}

export function readFixture(rel: string): string {
  return fs.readFileSync(fixturePath(rel), 'utf8');
}

export function readFixtureBytes(rel: string): Buffer {
  return fs.readFileSync(fixturePath(rel));
}

/** describe() over the shared fixtures; on a clone without ../shared it reports that it did not run. */
export function describeFixtures(name: string, fn: () => void): void {
  if (haveFixtures) {
    describe(name, fn);
  } else {
    describe(name, () => {
      it(`did not run: ${FIXTURES_DIR} is not present on this machine`, () => {
        console.warn(`[fixtures] "${name}" did not run: ${FIXTURES_DIR} is not present on this machine`);
      });
    });
  }
}
