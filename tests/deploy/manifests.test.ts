// deploy/: the Kubernetes/OpenShift manifests (JSON, which kubectl and oc read as they read YAML) and
// the Containerfile name only what the project has: every command and its options, port, environment
// variable, probe, Secret, ConfigMap and label they use exists, and they fit together.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../lib/config';
import { parseDuration } from '../../lib/cli/args';
import { COMMANDS } from '../../lib/cli/commands';

const ROOT = path.resolve(__dirname, '../..');
const DIR = path.join(ROOT, 'deploy/kubernetes');

type Obj = Record<string, any>;
const manifests: Obj[] = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')));
const of = (kind: string) => manifests.filter((m) => m.kind === kind);
const deployment = (component: string) => of('Deployment').find((d) => d.metadata.labels['app.kubernetes.io/component'] === component)!;
const containers = of('Deployment').flatMap((d) => d.spec.template.spec.containers.map((c: Obj) => ({ d, c })));

/** Every file of the project a running server or CLI may read its environment in. */
function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'generated') sources(p, out);
    else if (/\.(ts|tsx|mjs)$/.test(e.name)) out.push(fs.readFileSync(p, 'utf8'));
  }
  return out;
}
const code = [...['lib', 'app', 'scripts', 'bin'].flatMap((d) => sources(path.join(ROOT, d))), fs.readFileSync(path.join(ROOT, 'proxy.ts'), 'utf8')].join('\n');
/** The environment variables the project reads (process.env.X, env.X, env['X']). */
const readsEnv = (name: string) => new RegExp(`\\b(process\\.env|env)(\\.${name}\\b|\\[['"]${name}['"]\\])`).test(code);

describe('deploy/kubernetes', () => {
  it('has a web Deployment of several replicas behind a Service and a Route, and an ingester with a standby', () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Deployment', 'Route', 'Service']);
    expect(deployment('web').spec.replicas).toBeGreaterThanOrEqual(2);
    // one active ingester, one standby waiting for its lock (lib/ingest/activeIngester.ts)
    expect(deployment('ingest').spec.replicas).toBe(2);
    for (const d of of('Deployment')) expect(d.spec.template.metadata.labels).toMatchObject(d.spec.selector.matchLabels);
    const [service] = of('Service');
    expect(deployment('web').spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(deployment('ingest').spec.template.metadata.labels).not.toMatchObject(service.spec.selector);
    const [route] = of('Route');
    expect(route.spec.to).toEqual({ kind: 'Service', name: service.metadata.name });
    expect(service.spec.ports.map((p: Obj) => p.name)).toContain(route.spec.port.targetPort);
    const web = deployment('web').spec.template.spec.containers[0];
    for (const p of service.spec.ports) expect(web.ports.map((c: Obj) => c.name)).toContain(p.targetPort);
  });

  it('runs commands the project has, with options they take', async () => {
    for (const { c } of containers) {
      const [node, script, ...args] = c.command as string[];
      expect(node).toBe('node');
      expect(fs.existsSync(path.join(ROOT, script)), script).toBe(true);
      if (script !== 'bin/buildcop.mjs') continue;
      const [name, ...options] = args;
      expect(Object.keys(COMMANDS)).toContain(name);
      const usage = (await COMMANDS[name].load()).usage;
      for (const o of options.filter((a) => a.startsWith('--'))) expect(usage, o).toContain(o);
      expect(parseDuration(options[options.indexOf('--interval') + 1])).toBe(300_000);
    }
  });

  it('serves on the port it is told, and probes /api/health there', () => {
    const web = deployment('web').spec.template.spec.containers[0];
    expect(fs.existsSync(path.join(ROOT, 'app/api/health/route.ts'))).toBe(true);
    const port = web.env.find((e: Obj) => e.name === 'PORT').value;
    expect(web.ports).toEqual([{ name: 'http', containerPort: Number(port) }]);
    expect(fs.readFileSync(path.join(ROOT, 'scripts/start.mjs'), 'utf8')).toMatch(/process\.env\.PORT/);
    for (const probe of [web.readinessProbe, web.livenessProbe]) expect(probe.httpGet).toEqual({ path: '/api/health', port: 'http' });
  });

  it('sets only environment variables the project reads, the database URL from a Secret', () => {
    for (const { c } of containers) {
      for (const e of c.env) expect(readsEnv(e.name), e.name).toBe(true);
      expect(c.env.find((e: Obj) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef).toEqual({ name: 'buildcop-database', key: 'url' });
    }
    // the ingester reads back what it writes: never from a replica
    expect(deployment('ingest').spec.template.spec.containers[0].env.map((e: Obj) => e.name)).not.toContain('DATABASE_READ_URL');
    // the Secrets the manifests read are the ones the README says to create
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const { c } of containers) {
      for (const e of c.env.filter((x: Obj) => x.valueFrom?.secretKeyRef)) {
        const { name, key } = e.valueFrom.secretKeyRef;
        expect(readme, `${name}/${key}`).toMatch(new RegExp(`create secret generic ${name} .*--from-literal=${key}=`));
      }
    }
  });

  it('mounts a configuration buildcop accepts where BUILDCOP_CONFIG and --config point', () => {
    const [configMap] = of('ConfigMap');
    for (const { d, c } of containers) {
      const volumes = d.spec.template.spec.volumes;
      const mount = c.volumeMounts.find((m: Obj) => volumes.find((v: Obj) => v.name === m.name)?.configMap?.name === configMap.metadata.name);
      const file = c.env.find((e: Obj) => e.name === 'BUILDCOP_CONFIG')?.value ?? c.command[c.command.indexOf('--config') + 1];
      expect(path.dirname(file)).toBe(mount.mountPath);
      const text = configMap.data[path.basename(file)];
      expect(() => validateConfig(JSON.parse(text))).not.toThrow();
    }
  });
});

describe('deploy/Containerfile', () => {
  const text = fs.readFileSync(path.join(ROOT, 'deploy/Containerfile'), 'utf8');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

  it('builds with the project\'s scripts and starts the web tier on the manifests\' port by default', () => {
    for (const [, script] of text.matchAll(/npm run (\S+)/g)) expect(Object.keys(pkg.scripts)).toContain(script);
    expect(text).toMatch(/npm ci/); // postinstall: the Prisma clients and migrations
    expect(pkg.scripts.postinstall).toBe('node scripts/prisma-generate.mjs');
    const web = deployment('web').spec.template.spec.containers[0];
    expect(JSON.parse(/^CMD (.+)$/m.exec(text)![1])).toEqual(web.command);
    expect(/^EXPOSE (\d+)$/m.exec(text)![1]).toBe(String(web.ports[0].containerPort));
    expect(/PORT=(\d+)/.exec(text)![1]).toBe(String(web.ports[0].containerPort));
    // the image is built from the project root, without its local state
    expect(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules', '.next', 'data']));
  });
});
