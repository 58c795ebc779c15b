// Text encodings the real tools use: Go durations, Go %q, Go encoding/xml escaping, the timestamp
// layouts of ci-operator, ginkgo, Bugzilla, Jira and GitHub. Pure functions.

export const HOUR = 3600;
export const DAY = 86400;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** RFC3339 in UTC without fractional seconds: 2026-11-20T10:11:12Z (Prow, GitHub, Bugzilla). */
export function rfc3339(unix: number): string {
  return new Date(Math.round(unix) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Jira REST: 2026-11-20T10:11:12.000+0000 */
export function jiraTime(unix: number): string {
  return new Date(Math.round(unix) * 1000).toISOString().replace('Z', '+0000');
}

/** GCS `updated`: 2026-11-20T10:11:12.345Z */
export function gcsTime(unixMs: number): string {
  return new Date(unixMs).toISOString();
}

/** ci-operator log prefix: 2026/11/20 10:11:12 */
export function ciOperatorTime(unix: number): string {
  const d = new Date(unix * 1000);
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** openshift-tests end-of-test timestamp: 2026-11-20T10:11:12 */
export function statusTime(unix: number): string {
  return rfc3339(unix).slice(0, 19);
}

/** junit_e2e file suffix: 20261120-101112 */
export function junitStamp(unix: number): string {
  const d = new Date(unix * 1000);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** ginkgo framework log time: "Nov 20 10:11:12.345" (Go layout "Jan _2 15:04:05.000") */
export function ginkgoTime(unixMs: number): string {
  const d = new Date(unixMs);
  const day = String(d.getUTCDate()).padStart(2, ' ');
  return `${MONTHS[d.getUTCMonth()]} ${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/** release tag stamp: 2026-11-20-101112 */
export function tagStamp(unix: number): string {
  const d = new Date(unix * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

function trimFloat(x: number, decimals: number): string {
  return x.toFixed(decimals).replace(/\.?0+$/, '');
}

/** Go's time.Duration.String() for a duration in seconds (ms precision): 1h2m3s, 45m0s, 1.2s, 300ms, 0s */
export function goDuration(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const sec = `${trimFloat(s, 3)}s`;
  if (h > 0) return `${h}h${m}m${sec}`;
  if (m > 0) return `${m}m${sec}`;
  return sec;
}

/** openshift-tests rounds to 0.1s, and to whole seconds above a minute */
export function testDuration(seconds: number): string {
  const r = seconds > 60 ? Math.round(seconds) : Math.round(seconds * 10) / 10;
  return goDuration(r);
}

// test names repeat in every run: their quoted and escaped forms are computed once
const quoted = new Map<string, string>();
const escaped = new Map<string, string>();

/** Go %q for the printable names we generate (JSON escaping is identical for those). */
export function goQuote(s: string): string {
  let q = quoted.get(s);
  if (q === undefined) quoted.set(s, (q = JSON.stringify(s)));
  return q;
}

/** xmlEscape, memoized: for strings that recur (test names, messages) */
export function xmlEscapeName(s: string): string {
  let e = escaped.get(s);
  if (e === undefined) escaped.set(s, (e = xmlEscape(s)));
  return e;
}

const XML_SPECIAL = /["'&<>\t\n\r]/;

/** Go encoding/xml escaping (attributes and character data alike). */
export function xmlEscape(s: string): string {
  if (!XML_SPECIAL.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    switch (c) {
      case '"': out += '&#34;'; break;
      case "'": out += '&#39;'; break;
      case '&': out += '&amp;'; break;
      case '<': out += '&lt;'; break;
      case '>': out += '&gt;'; break;
      case '\t': out += '&#x9;'; break;
      case '\n': out += '&#xA;'; break;
      case '\r': out += '&#xD;'; break;
      default: out += c;
    }
  }
  return out;
}

/** Go encoding/xml float attribute (strconv 'g', -1) for the magnitudes we use. */
export function xmlFloat(x: number): string {
  return String(Math.round(x * 10) / 10);
}

/** Prow snowflake build id for a start time (ms since the Twitter epoch, shifted by 22 bits). */
export function buildIdFor(startedUnix: number, seq: number): string {
  const ms = BigInt(Math.round(startedUnix * 1000)) - 1288834974657n;
  return ((ms << 22n) + BigInt(seq & 0x3fffff)).toString();
}
