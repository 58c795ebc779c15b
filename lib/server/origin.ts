// The dashboard's own origin, for permanent links, OpenGraph URLs and bug comments. A request's Host
// or X-Forwarded-Host is whatever the client sent: put in a link, a forged one would send readers
// (and caches of the page) elsewhere. So: BUILDCOP_PUBLIC_URL when set; else the request's host when
// it is one of BUILDCOP_ALLOWED_HOSTS; else no origin at all, and links are relative.

/** "host" or "host:port" of a header or an allowed-hosts entry, or null when it is not one. */
function hostAndPort(value: string): { host: string; port: string } | null {
  if (!/^[A-Za-z0-9.\-:[\]]{1,255}$/.test(value)) return null;
  try {
    const u = new URL(`http://${value}`);
    return u.username || u.password || u.pathname !== '/' ? null : { host: u.hostname, port: u.port };
  } catch {
    return null;
  }
}

/**
 * BUILDCOP_ALLOWED_HOSTS as given: comma-separated hosts, each with or without a port (without one,
 * any port of that host).
 */
export function allowedHostsOf(list: string | undefined): { host: string; port: string }[] {
  return (list ?? '').split(',').map((s) => s.trim()).filter(Boolean).flatMap((s) => hostAndPort(s) ?? []);
}

/** The origin links are made with ('' for relative links), from the environment and the request's headers. */
/** `env`: BUILDCOP_PUBLIC_URL and BUILDCOP_ALLOWED_HOSTS (process.env) */
export function trustedOrigin(env: Record<string, string | undefined>, headers: { get(name: string): string | null }): string {
  const configured = env.BUILDCOP_PUBLIC_URL;
  if (configured && /^https?:\/\/[^\s/]+/.test(configured)) return configured.replace(/\/+$/, '');
  // a proxy's X-Forwarded-Host, the first of a list, else the Host the client sent
  const sent = (headers.get('x-forwarded-host') ?? headers.get('host') ?? '').split(',')[0].trim();
  const asked = hostAndPort(sent);
  if (!asked) return '';
  const allowed = allowedHostsOf(env.BUILDCOP_ALLOWED_HOSTS).some((a) => a.host === asked.host && (a.port === '' || a.port === asked.port));
  if (!allowed) return '';
  const proto = headers.get('x-forwarded-proto')?.split(',')[0].trim() === 'https' ? 'https' : 'http';
  return `${proto}://${asked.host}${asked.port ? `:${asked.port}` : ''}`;
}
