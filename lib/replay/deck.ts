// Deck's /data.js (current or 2019 field sets, JSON or `var NAME = …;`) and /prowjobs.js, derived at
// request time from deck/jobs.json and world.json: runs started within the last deckWindowHours
// before `now` only, newest first; a run not finished by `now` is pending.
import { REPLAY_PLACEHOLDER } from '../world/catalog';
import { deckJob2019, prowJobFor } from '../world/prowjob';
import { jsonReply, listParam, type Reply, type RouteContext } from './http';

function withVar(ctx: RouteContext, body: unknown): Reply {
  const name = ctx.url.searchParams.get('var');
  if (name && /^[A-Za-z_$][\w$]*$/.test(name)) {
    return { status: 200, headers: { 'content-type': 'application/javascript' }, body: `var ${name} = ${JSON.stringify(body)};`, gzip: true };
  }
  return { ...jsonReply(200, body), gzip: true };
}

function inWindow(ctx: RouteContext, started: number): boolean {
  return started <= ctx.now && started > ctx.now - ctx.options.deckWindowHours * 3600;
}

export function dataJs(ctx: RouteContext): Reply {
  const records: Record<string, unknown>[] = [];
  for (const rec of ctx.world.deckJobs) {
    const started = Number(rec.started);
    if (!inWindow(ctx, started)) continue;
    const job: Record<string, unknown> = { ...rec, url: String(rec.url).replace(REPLAY_PLACEHOLDER, ctx.baseUrl) };
    if (Date.parse(String(rec.finished)) / 1000 > ctx.now) {
      Object.assign(job, { state: 'pending', finished: '', duration: '', description: 'Job triggered.' });
    }
    records.push(ctx.options.deckFormat === '2019' ? deckJob2019(job) : job);
  }
  return withVar(ctx, records);
}

export function prowJobsJs(ctx: RouteContext): Reply {
  const omit = new Set(listParam(ctx.url, 'omit'));
  const org = ctx.url.searchParams.get('org');
  const repo = ctx.url.searchParams.get('repo');
  const items = ctx.world.runs
    .filter((r) => inWindow(ctx, r.started))
    .filter((r) => {
      const refs = r.refs ?? r.extraRefs?.[0];
      return (!org || refs?.org === org) && (!repo || refs?.repo === repo);
    })
    .sort((a, b) => b.started - a.started || (a.job < b.job ? -1 : 1))
    .map((r) => {
      const pj = prowJobFor(r, ctx.now, ctx.baseUrl) as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
      if (omit.has('annotations')) delete pj.metadata.annotations;
      if (omit.has('labels')) delete pj.metadata.labels;
      if (omit.has('decoration_config')) delete pj.spec.decoration_config;
      if (omit.has('pod_spec')) {
        const containers = (pj.spec.pod_spec as { containers?: unknown[] } | undefined)?.containers ?? [];
        pj.spec.pod_spec = { containers: containers.map(() => ({ name: '', resources: {} })) };
      }
      return pj;
    });
  return withVar(ctx, { items });
}
