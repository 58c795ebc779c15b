// The buildcop configuration for a generated world served at `url`: every source is the replay server.
import fs from 'node:fs';
import path from 'node:path';
import { validateConfig, type Config } from '../config';
import { REPLAY_PLACEHOLDER } from '../world/catalog';

export function replayConfig(worldDir: string, url: string): Config {
  const template = fs.readFileSync(path.join(worldDir, 'buildcop.config.json.template'), 'utf8');
  return validateConfig(JSON.parse(template.replaceAll(REPLAY_PLACEHOLDER, url)));
}
