// After `npm run demo`, the CLI in the same folder finds the sample world's configuration; a
// buildcop.config.json of the user's own is never replaced.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigIfPresent } from '../../lib/config';
import { placeDemoConfig, placedConfigMessage } from '../../lib/cli/demoConfig';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-democfg-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const demoConfig = (dir: string, port: number) => {
  const file = path.join(dir, 'data-demo-buildcop.config.json');
  fs.writeFileSync(file, JSON.stringify({ prow: { url: `http://127.0.0.1:${port}` }, promotion: [{ name: 'machine-os-content 4.1', blockingJobs: ['x'] }] }, null, 2));
  return file;
};

describe('the demo\'s configuration in the working directory', () => {
  it('is written where the CLI reads it, and the CLI then finds the gates', () => {
    const cwd = tmp();
    const placed = placeDemoConfig(demoConfig(tmp(), 8099), cwd);
    expect(placed.action).toBe('wrote');
    expect(placed.file).toBe(path.join(cwd, 'buildcop.config.json'));
    const here = process.cwd();
    process.chdir(cwd);
    try {
      expect(loadConfigIfPresent()?.promotion?.[0].name).toBe('machine-os-content 4.1');
    } finally {
      process.chdir(here);
    }
    expect(placedConfigMessage(placed, 'data/demo/buildcop.config.json')).toMatch(/^wrote .*buildcop\.config\.json with the sample world's sources/);
  });

  it('is brought up to date when the demo wrote it before, and a user\'s own file is kept', () => {
    const cwd = tmp();
    const first = placeDemoConfig(demoConfig(tmp(), 8099), cwd);
    const moved = placeDemoConfig(demoConfig(tmp(), 40123), cwd, first.digest);
    expect(moved.action).toBe('updated');
    expect(fs.readFileSync(moved.file, 'utf8')).toContain('40123');
    expect(placeDemoConfig(demoConfig(tmp(), 40123), cwd, moved.digest)).toMatchObject({ action: 'kept', digest: moved.digest });

    fs.writeFileSync(moved.file, '{ "prow": { "url": "https://prow.ci.openshift.org" } }\n');
    const kept = placeDemoConfig(demoConfig(tmp(), 8099), cwd, moved.digest);
    expect(kept).toEqual({ file: moved.file, action: 'kept' });
    expect(fs.readFileSync(moved.file, 'utf8')).toContain('prow.ci.openshift.org');
    expect(placedConfigMessage(kept, 'data/demo/buildcop.config.json')).toContain('is yours and was kept; the sample world\'s configuration is data/demo/buildcop.config.json');
  });
});
