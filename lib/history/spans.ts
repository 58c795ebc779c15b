// A time range cut the way the rollups hold it: whole UTC days, whole hours of the partial days at its
// ends, and the part of an hour at each edge (read from the runs themselves). Pure.
export const DAY = 86_400;
export const HOUR = 3_600;

export interface Spans {
  /** [first, end) day numbers (Unix days) */
  days: [number, number] | null;
  /** [first, end) hour numbers (Unix hours), at most two ranges */
  hours: [number, number][];
  /** [from, to) Unix seconds, at most two ranges of less than an hour */
  raw: [number, number][];
}

/** Hour ranges [a, b) cut at each UTC day's start: a range of `spansOf` may cross midnight. */
export function hoursByDay(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  const perDay = DAY / HOUR;
  for (const [a, b] of ranges) for (let x = a; x < b; x = (Math.floor(x / perDay) + 1) * perDay) out.push([x, Math.min(b, (Math.floor(x / perDay) + 1) * perDay)]);
  return out;
}

export function spansOf(from: number, to: number): Spans {
  const out: Spans = { days: null, hours: [], raw: [] };
  if (to <= from) return out;
  const h0 = Math.ceil(from / HOUR);
  const h1 = Math.floor(to / HOUR);
  if (h0 >= h1) {
    out.raw.push([from, to]);
    return out;
  }
  if (from < h0 * HOUR) out.raw.push([from, h0 * HOUR]);
  const d0 = Math.ceil((h0 * HOUR) / DAY);
  const d1 = Math.floor((h1 * HOUR) / DAY);
  if (d0 < d1) {
    if (h0 < (d0 * DAY) / HOUR) out.hours.push([h0, (d0 * DAY) / HOUR]);
    out.days = [d0, d1];
    if ((d1 * DAY) / HOUR < h1) out.hours.push([(d1 * DAY) / HOUR, h1]);
  } else out.hours.push([h0, h1]);
  if (h1 * HOUR < to) out.raw.push([h1 * HOUR, to]);
  return out;
}
