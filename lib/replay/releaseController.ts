// openshift/release-controller API (cmd/release-controller-api/http.go): /api/v1/releasestream/<stream>/
// {tags, latest, release/<tag>} and /api/v1/releasestreams/accepted. Tags are listed newest first: the
// handler sorts with SemanticVersions.Less, which orders higher versions first (the APIRelease doc
// comment says "oldest to newest", the code does the opposite).
import { apiTag, releaseInfo, tagPhase, visibleTags } from '../world/release';
import type { WorldReleaseStream } from '../world/types';
import { jsonReply, listParam, textReply, type Reply, type RouteContext } from './http';

function stream(ctx: RouteContext, name: string): WorldReleaseStream | undefined {
  return ctx.world.manifest.releaseStreams.find((s) => s.name === name);
}

export function releaseRoute(ctx: RouteContext, rest: string[]): Reply | undefined {
  if (rest[0] === 'releasestreams' && rest[1] === 'accepted' && rest.length === 2) {
    const out = Object.fromEntries(
      ctx.world.manifest.releaseStreams.map((s) => [s.name, visibleTags(s, ctx.now).filter((t) => tagPhase(t, ctx.world.runIndex, ctx.now) === 'Accepted').map((t) => t.name)]),
    );
    return jsonReply(200, out);
  }
  if (rest[0] !== 'releasestream' || rest.length < 3) return undefined;
  const s = stream(ctx, rest[1]);
  if (!s) return textReply(404, `Unable to find release ${rest[1]}\n`);
  const tags = visibleTags(s, ctx.now);
  const phases = listParam(ctx.url, 'phase');
  const format = ctx.url.searchParams.get('format') ?? '';
  if (format !== '' && format !== 'json') return textReply(400, "error: Must specify one of '', 'json', 'pullSpec', 'name', or 'downloadURL\n");
  if (rest[2] === 'tags' && rest.length === 3) {
    const list = tags.map((t) => apiTag(t, ctx.world.runIndex, ctx.now)).filter((t) => phases.length === 0 || phases.includes(t.phase));
    return jsonReply(200, { name: s.name, tags: list });
  }
  if (rest[2] === 'latest' && rest.length === 3) {
    const want = phases.length ? phases : ['Accepted'];
    const t = tags.find((x) => want.includes(tagPhase(x, ctx.world.runIndex, ctx.now)));
    return t ? jsonReply(200, apiTag(t, ctx.world.runIndex, ctx.now)) : textReply(404, 'no tags exist within the release that satisfy the request\n');
  }
  if (rest[2] === 'release' && rest.length === 4) {
    const t = tags.find((x) => x.name === rest[3]);
    if (!t) return textReply(404, `could not find tag: ${rest[3]}\n`);
    return jsonReply(200, releaseInfo(t, ctx.world.runIndex, ctx.now, ctx.baseUrl));
  }
  return undefined;
}
