// GCS `matchGlob` syntax (objects.list), read as GCS documents it: the replay server filters with it,
// and the client checks a server's first glob listing against it (lib/sources/gcs.ts).

/**
 * A GCS `matchGlob` as a RegExp over whole object names: `*` and `?` within a folder level, `**`
 * across levels (`**\/` also matching none), `[abc]`, `[!abc]`, `[a-z]`, `{a,b}` (not nested), `\`
 * escaping. Undefined for a glob GCS would refuse (an unclosed bracket or brace, nested braces).
 */
export function globToRegExp(glob: string): RegExp | undefined {
  let re = '';
  let inBraces = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      if (++i >= glob.length) return undefined;
      re += escapeRegExp(glob[i]);
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2); // a ] right after [ (or [!) is a member
      if (close < 0) return undefined;
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!');
      if (negated) body = body.slice(1);
      re += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else if (c === '{') {
      if (inBraces) return undefined;
      inBraces = true;
      re += '(?:';
    } else if (c === '}' && inBraces) {
      inBraces = false;
      re += ')';
    } else if (c === ',' && inBraces) re += '|';
    else re += escapeRegExp(c);
  }
  if (inBraces) return undefined;
  try {
    return new RegExp(`^${re}$`, 's');
  } catch {
    return undefined;
  }
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
