// buildcop.config.json: loaded and validated. The key names are a contract (README "Configuration").
import fs from 'node:fs';
import path from 'node:path';
import { compileRegex } from './patterns';

export interface PromotionGateConfig {
  name: string;
  /** job names or regexes */
  blockingJobs: string[];
  informingJobs: string[];
}

export interface Config {
  /**
   * artifactsUrl: where a run's artifacts are browsed, a template of {bucket} and {path} (default
   * Spyglass on the Prow host, <prow.url>/view/gs/{bucket}/{path}); a gcsweb template such as
   * https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/{bucket}/{path} serves single files too
   */
  prow: { url: string; jobs?: string; artifactsUrl?: string };
  gcs?: { url: string };
  /** product, component, version: what "file a bug" fills in enter_bug.cgi */
  bugzilla?: { url: string; query?: string; product?: string; component?: string; version?: string };
  /** projectId, issueType: the numeric ids Jira's create form (CreateIssueDetails!init.jspa) takes as pid and issuetype */
  jira?: { url: string; jql?: string; projectId?: string | number; issueType?: string | number };
  github?: { url: string; repos: string[]; token?: string };
  releaseController?: { url: string; streams: string[] };
  promotion?: PromotionGateConfig[];
  /** regexes of test names left out of the hot list; replaces the default list when present */
  ignoreTests?: string[];
  /**
   * per owner (a test's sig, "sig-network" or "network"): the Bugzilla component, Jira component and
   * GitHub label "file a bug" picks for its tests
   */
  owners?: Record<string, OwnerTrackers>;
  /** webhooks told of new events after each ingest pass (a JSON POST of Slack's {"text": ...} shape) */
  alerts?: AlertConfig[];
  /** ingest tuning; every key optional */
  /**
   * workers: threads that parse downloaded runs and cluster their failures (0 = on the main thread;
   * default 1 from 3 cores up for `ingest --interval`, else 0). since: a duration ("90d"): each pass
   * also backfills, from the GCS job folders, the builds started that long before Deck's newest run.
   * standingReleases: how many of the newest releases get a standing 7d hot list and causes after
   * each pass (default 8; 0: none).
   */
  ingest?: { concurrency?: number; maxFileBytes?: number; retries?: number; timeoutMs?: number; workers?: number; since?: string; standingReleases?: number };
  /** a duration ("90d", the default): each pass deletes the runs that started longer ago */
  retention?: string;
}

export interface OwnerTrackers {
  bugzilla?: string;
  jira?: string;
  github?: string;
}

export const ALERT_EVENTS = ['gate-blocked', 'stream-rejected', 'new-regression', 'new-cause'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export interface AlertConfig {
  url: string;
  on: AlertEvent[];
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** How long runs are kept when the configuration does not say (see Config.retention). */
export const DEFAULT_RETENTION = '90d';

const DURATION_UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "90d", "36h", "5m", "90s", "250ms" in milliseconds; undefined for anything else. */
export function durationMs(s: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(s.trim());
  return m ? Number(m[1]) * DURATION_UNITS[m[2] as keyof typeof DURATION_UNITS] : undefined;
}

/**
 * The backfill's reach and the retention, in seconds. `since` is the command line's (`--since`), else
 * the configuration's `ingest.since`; it must not reach further back than `retention`, which would
 * prune what the backfill stores. Throws a ConfigError naming the keys.
 */
export function historyBounds(config: Config, since?: string): { sinceSeconds?: number; retentionSeconds: number } {
  const key = since === undefined ? 'ingest.since' : '--since';
  const value = since ?? config.ingest?.since;
  const retention = config.retention ?? DEFAULT_RETENTION;
  const retentionSeconds = durationMs(retention)! / 1000;
  if (value === undefined) return { retentionSeconds };
  const ms = durationMs(value);
  if (!ms) throw new ConfigError(`${key} ${JSON.stringify(value)} is not a duration (use e.g. 90d, 36h)`);
  if (ms / 1000 > retentionSeconds) {
    throw new ConfigError(`${key} ${value} reaches further back than "retention" (${retention}): what it backfills would be pruned; raise "retention" or shorten ${key}`);
  }
  return { sinceSeconds: ms / 1000, retentionSeconds };
}

type FieldType = 'string' | 'url' | 'regex' | 'string[]' | 'regex[]' | 'number' | 'count' | 'duration' | 'id' | 'template' | 'events';
type Shape = Record<string, { type: FieldType | Record<string, unknown>; required?: boolean }>;

const SECTIONS: Record<string, Shape | 'promotion' | 'regex[]' | 'duration' | 'owners' | 'alerts'> = {
  prow: { url: { type: 'url', required: true }, jobs: { type: 'regex' }, artifactsUrl: { type: 'template' } },
  gcs: { url: { type: 'url', required: true } },
  bugzilla: { url: { type: 'url', required: true }, query: { type: 'string' }, product: { type: 'string' }, component: { type: 'string' }, version: { type: 'string' } },
  jira: { url: { type: 'url', required: true }, jql: { type: 'string' }, projectId: { type: 'id' }, issueType: { type: 'id' } },
  github: { url: { type: 'url', required: true }, repos: { type: 'string[]', required: true }, token: { type: 'string' } },
  releaseController: { url: { type: 'url', required: true }, streams: { type: 'string[]', required: true } },
  promotion: 'promotion',
  ignoreTests: 'regex[]',
  retention: 'duration',
  owners: 'owners',
  alerts: 'alerts',
  ingest: {
    concurrency: { type: 'number' },
    maxFileBytes: { type: 'number' },
    retries: { type: 'count' },
    timeoutMs: { type: 'number' },
    workers: { type: 'count' },
    since: { type: 'duration' },
    standingReleases: { type: 'count' },
  },
};

const ALERT_SHAPE: Shape = { url: { type: 'url', required: true }, on: { type: 'events', required: true } };

const OWNER_SHAPE: Shape = { bugzilla: { type: 'string' }, jira: { type: 'string' }, github: { type: 'string' } };

const GATE_SHAPE: Shape = {
  name: { type: 'string', required: true },
  blockingJobs: { type: 'regex[]', required: true },
  informingJobs: { type: 'regex[]' },
};

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function checkField(key: string, value: unknown, type: FieldType): void {
  const fail = (want: string, got = typeName(value)) => {
    throw new ConfigError(`config key "${key}" must be ${want}, got ${got}`);
  };
  // a number of the wrong size is shown as itself: "got a number" would not say what is wrong
  const gotNumber = typeof value === 'number' ? String(value) : undefined;
  switch (type) {
    case 'string':
      if (typeof value !== 'string') fail('a string');
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail('a positive number', gotNumber);
      return;
    case 'count':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail('a whole number, 0 or more', gotNumber);
      return;
    case 'id':
      // Jira's create form selects the project and issue type by numeric id (pid=12332330&issuetype=1)
      if (!(typeof value === 'number' && Number.isSafeInteger(value) && value > 0) && !(typeof value === 'string' && /^\d{1,18}$/.test(value))) {
        fail('a numeric id (a whole number, or a string of digits)', typeof value === 'string' ? JSON.stringify(value) : gotNumber);
      }
      return;
    case 'url': {
      if (typeof value !== 'string') fail('a URL string');
      let u: URL;
      try {
        u = new URL(value as string);
      } catch {
        throw new ConfigError(`config key "${key}" is not a valid URL: ${JSON.stringify(value)}`);
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        throw new ConfigError(`config key "${key}" must be an http(s) URL, got ${JSON.stringify(value)}`);
      }
      return;
    }
    case 'template': {
      if (typeof value !== 'string') fail('a URL template string');
      const v = value as string;
      if (!v.includes('{path}')) throw new ConfigError(`config key "${key}" must hold {path} (and usually {bucket}), got ${JSON.stringify(v)}`);
      const unknown = /\{(?!bucket\}|path\})[^}]*\}/.exec(v);
      if (unknown) throw new ConfigError(`config key "${key}" knows only {bucket} and {path}, not ${unknown[0]}`);
      checkField(key, v.replaceAll('{bucket}', 'b').replaceAll('{path}', 'p'), 'url');
      return;
    }
    case 'events':
      if (!Array.isArray(value) || !value.length || value.some((e) => !(ALERT_EVENTS as readonly unknown[]).includes(e))) {
        fail(`a non-empty array of ${ALERT_EVENTS.map((e) => JSON.stringify(e)).join(', ')}`, Array.isArray(value) ? JSON.stringify(value) : undefined);
      }
      return;
    case 'regex':
      if (typeof value !== 'string') fail('a regular expression string');
      checkRegex(key, value as string);
      return;
    case 'duration':
      if (typeof value !== 'string' || !durationMs(value)) fail('a duration such as "90d" or "36h"', typeof value === 'string' ? JSON.stringify(value) : undefined);
      return;
    case 'string[]':
    case 'regex[]':
      if (!Array.isArray(value) || value.some((s) => typeof s !== 'string')) fail('an array of strings');
      if (type === 'regex[]') (value as string[]).forEach((s, i) => checkRegex(`${key}[${i}]`, s));
      return;
  }
}

/** Configuration regexes run on RE2 as the users' do (lib/patterns.ts); a bad one names its key. */
function checkRegex(key: string, source: string): void {
  try {
    compileRegex(source, key);
  } catch (e) {
    throw new ConfigError(`config key "${key}" is not a valid regular expression: ${(e as Error).message.replace(/^invalid .* regular expression: /, '')}`);
  }
}

function checkObject(prefix: string, value: unknown, shape: Shape): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`config key "${prefix}" must be an object, got ${typeName(value)}`);
  }
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    if (!(k in shape)) {
      throw new ConfigError(`unknown config key "${prefix}.${k}" (known: ${Object.keys(shape).join(', ')})`);
    }
  }
  for (const [k, spec] of Object.entries(shape)) {
    if (obj[k] === undefined) {
      if (spec.required) throw new ConfigError(`config key "${prefix}.${k}" is required`);
      continue;
    }
    checkField(`${prefix}.${k}`, obj[k], spec.type as FieldType);
  }
}

/** Validates parsed JSON; throws ConfigError naming the offending key. */
export function validateConfig(raw: unknown): Config {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`the configuration must be a JSON object, got ${typeName(raw)}`);
  }
  const obj = raw as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    if (!(k in SECTIONS)) throw new ConfigError(`unknown config key "${k}" (known: ${Object.keys(SECTIONS).join(', ')})`);
  }
  if (obj.prow === undefined) throw new ConfigError('config key "prow" is required');
  for (const [k, shape] of Object.entries(SECTIONS)) {
    if (obj[k] === undefined) continue;
    if (shape === 'regex[]' || shape === 'duration') checkField(k, obj[k], shape);
    else if (shape === 'owners') {
      const owners = obj[k];
      if (typeof owners !== 'object' || owners === null || Array.isArray(owners)) throw new ConfigError(`config key "owners" must be an object, got ${typeName(owners)}`);
      for (const [owner, trackers] of Object.entries(owners)) checkObject(`owners.${owner}`, trackers, OWNER_SHAPE);
    } else if (shape === 'alerts') {
      if (!Array.isArray(obj[k])) throw new ConfigError(`config key "alerts" must be an array, got ${typeName(obj[k])}`);
      (obj[k] as unknown[]).forEach((a, i) => checkObject(`alerts[${i}]`, a, ALERT_SHAPE));
    } else if (shape === 'promotion') {
      if (!Array.isArray(obj[k])) throw new ConfigError(`config key "promotion" must be an array, got ${typeName(obj[k])}`);
      (obj[k] as unknown[]).forEach((g, i) => checkObject(`promotion[${i}]`, g, GATE_SHAPE));
    } else checkObject(k, obj[k], shape);
  }
  const config = obj as unknown as Config;
  for (const gate of config.promotion ?? []) gate.informingJobs ??= [];
  historyBounds(config);
  return config;
}

export const DEFAULT_CONFIG_FILE = 'buildcop.config.json';

/** Where the config lives: --config, else BUILDCOP_CONFIG, else ./buildcop.config.json. */
export function configPath(explicit?: string): string {
  // turbopackIgnore: a runtime path, not a file to bundle or trace into the build
  return path.resolve(/* turbopackIgnore: true */ explicit ?? process.env.BUILDCOP_CONFIG ?? DEFAULT_CONFIG_FILE);
}

export function loadConfig(explicit?: string): Config {
  const file = configPath(explicit);
  let text: string;
  try {
    text = fs.readFileSync(/* turbopackIgnore: true */ file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read configuration ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`configuration ${file} is not valid JSON: ${(e as Error).message}`);
  }
  try {
    return validateConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${file}: ${e.message}`);
    throw e;
  }
}

/** Like loadConfig, but a missing file is not an error (pages work without one). */
export function loadConfigIfPresent(explicit?: string): Config | undefined {
  const file = configPath(explicit);
  if (!explicit && !fs.existsSync(/* turbopackIgnore: true */ file)) return undefined;
  return loadConfig(explicit);
}

/** The hosts ingest may contact: only those named in the configuration. */
export function allowedHosts(config: Config): Set<string> {
  const urls = [config.prow.url, config.gcs?.url, config.bugzilla?.url, config.jira?.url, config.github?.url, config.releaseController?.url];
  return new Set(urls.filter((u): u is string => !!u).map((u) => new URL(u).host));
}
