// `world --tests N`: openshift-tests suites of N tests, generated names in the real style joining
// the hand-written catalog, the scenarios kept; without it the catalog is the bundled one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJunit } from '../../lib/parse/junit';
import { TEST_WORLD_END, worldDirName } from '../../lib/replay/ensureWorld';
import { generatedTests } from '../../lib/world/generatedTests';
import { generateWorld } from '../../lib/world/generate';
import { catalogTests } from '../../lib/world/testNames';
import type { WorldManifest } from '../../lib/world/types';

/* eslint-disable @typescript-eslint/no-explicit-any */
const N = 600;
let base: string;
let manifest: WorldManifest;
let truth: any;
let defaultManifest: WorldManifest;
let defaultTruth: any;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-world-tests-'));
  defaultManifest = await generateWorld({ dir: path.join(base, 'default'), end: TEST_WORLD_END });
  manifest = await generateWorld({ dir: path.join(base, 'larger'), end: TEST_WORLD_END, tests: N });
  defaultTruth = JSON.parse(fs.readFileSync(path.join(base, 'default', 'truth.json'), 'utf8'));
  truth = JSON.parse(fs.readFileSync(path.join(base, 'larger', 'truth.json'), 'utf8'));
}, 240_000);

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

describe('the catalog with --tests', () => {
  it('is the hand-written one without it, and that one followed by generated tests up to N with it', () => {
    const own = catalogTests();
    expect(catalogTests(undefined)).toEqual(own);
    expect(catalogTests(own.length - 10)).toEqual(own);
    const larger = catalogTests(3000);
    expect(larger).toHaveLength(3000);
    expect(larger.slice(0, own.length)).toEqual(own);
    expect(new Set(larger.map((t) => t.name)).size).toBe(3000);
  });

  it('generates names in openshift-tests style, the same ones every time, a quarter in the minimal suite', () => {
    const g = generatedTests(40_000);
    expect(generatedTests(40_000)).toEqual(g);
    expect(new Set(g.map((t) => t.name)).size).toBe(g.length);
    for (const t of g.slice(0, 3000)) {
      expect(t.name).toMatch(/^\[sig-[a-z-]+\](\[Feature:[A-Za-z]+\])?( DNS)? \S.* should [a-z].* \[Suite:openshift\/conformance\/parallel(\/minimal\] \[Suite:k8s)?\]$/);
      expect(t.failureRate).toBeGreaterThan(0);
      expect(t.failureRate).toBeLessThan(0.05);
    }
    expect(g.slice(0, 3000).filter((t) => t.minimal).length).toBe(750);
    // about 3 of 3,000 fail in a run, as real suites fail a few tests in most runs
    const expected = g.slice(0, 3000).reduce((a, t) => a + t.failureRate, 0);
    expect(expected).toBeGreaterThan(2);
    expect(expected).toBeLessThan(5);
  });
});

describe(`a world with --tests ${N}`, () => {
  it('has the same runs, each full-suite run executing the N tests, and says how it was made', () => {
    expect(manifest.tests).toBe(N);
    expect(defaultManifest.tests).toBeUndefined();
    expect(manifest.runs.map((r) => `${r.job}/${r.buildId}`)).toEqual(defaultManifest.runs.map((r) => `${r.job}/${r.buildId}`));
    const run = manifest.runs.find((r) => r.job.endsWith('nightly-4.2-e2e-aws') && r.state === 'success')!;
    const junit = run.files.find((f) => /junit_e2e_.*\.xml$/.test(f.path))!;
    const { cases, error } = parseJunit(fs.readFileSync(path.join(base, 'larger', 'gcs', run.bucket, run.gcsPath, junit.path)));
    expect(error).toBeUndefined();
    const names = new Set(cases.map((c) => c.name));
    for (const t of catalogTests(N).filter((t) => t.background)) expect(names.has(t.name), t.name).toBe(true);
    expect(names.size).toBeGreaterThanOrEqual(N - 2); // the suite's test added and the one removed in the world's course
    expect(worldDirName(TEST_WORLD_END, 1, N)).toMatch(/-t600$/);
  });

  it('keeps every scenario and its expected verdict, and fails generated tests in a small share of runs', () => {
    expect(truth.expectedVerdicts).toEqual(defaultTruth.expectedVerdicts);
    expect(truth.scenarios.regression).toEqual(defaultTruth.scenarios.regression);
    for (const name of Object.keys(defaultTruth.expectedVerdicts)) expect(truth.perTest[name], name).toBeDefined();
    const generated = new Set(generatedTests(N - catalogTests().length).map((t) => t.name));
    const failing = Object.entries(truth.perTest).filter(([name]) => generated.has(name)) as [string, any][];
    expect(failing.length).toBeGreaterThan(50);
    for (const [, t] of failing) expect((t.window.failedRuns + t.window.flakedRuns) / Math.max(1, t.window.runs)).toBeLessThan(0.3);
    expect(truth.testResults.total).toBeGreaterThan(defaultTruth.testResults.total * 2);
  });
});
