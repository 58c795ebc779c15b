// The demo's configuration where the CLI looks for one (./buildcop.config.json), so that
// `npx buildcop promotion` after `npm run demo` answers about the sample world. A file the user
// wrote there is never replaced; one the demo wrote before is brought up to date (the replay
// server's port may have changed).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG_FILE } from '../config';

export interface PlacedConfig {
  file: string;
  action: 'wrote' | 'updated' | 'kept';
  /** digest of what the demo wrote (remember it: a later demo run may then update the file) */
  digest?: string;
}

const digestOf = (text: string) => crypto.createHash('sha1').update(text).digest('hex');

/** `writtenBefore`: the digest the previous demo run returned, if any. */
export function placeDemoConfig(demoConfigFile: string, dir: string, writtenBefore?: string): PlacedConfig {
  const file = path.join(dir, DEFAULT_CONFIG_FILE);
  const text = fs.readFileSync(demoConfigFile, 'utf8');
  let existing: string | undefined;
  try {
    existing = fs.readFileSync(file, 'utf8');
  } catch {
    // none yet
  }
  if (existing === text) return { file, action: 'kept', digest: digestOf(text) };
  if (existing !== undefined && digestOf(existing) !== writtenBefore) return { file, action: 'kept' };
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
  return { file, action: existing === undefined ? 'wrote' : 'updated', digest: digestOf(text) };
}

/** What the demo says about it. */
export function placedConfigMessage(p: PlacedConfig, demoConfigFile: string): string {
  const rel = path.relative(process.cwd(), p.file) || p.file;
  if (p.action === 'kept' && p.digest) return `${rel} is the sample world's configuration: \`npx buildcop hotlist\`, \`promotion\`, ... read it here`;
  if (p.action === 'kept') return `${rel} is yours and was kept; the sample world's configuration is ${demoConfigFile} (\`npx buildcop promotion --config ${demoConfigFile}\`)`;
  return `${p.action} ${rel} with the sample world's sources: \`npx buildcop hotlist\`, \`promotion\`, ... in this folder read it`;
}
