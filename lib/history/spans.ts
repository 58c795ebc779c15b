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

/**
 * Hour ranges as a per-hour rollup is read cheapest beside its per-day one: cut at each midnight (a
 * range of `spansOf` may cross one), and more than half of a day's hours as the whole day (`days`)
 * less its other hours (`less`); `hours` are read as they are.
 */
export function hoursAsDays(ranges: [number, number][]): { hours: [number, number][]; days: number[]; less: [number, number][] } {
  const out = { hours: [] as [number, number][], days: [] as number[], less: [] as [number, number][] };
  const perDay = DAY / HOUR;
  for (const [from, to] of ranges) {
    for (let a = from; a < to; a = (Math.floor(a / perDay) + 1) * perDay) {
      const h0 = Math.floor(a / perDay) * perDay;
      const b = Math.min(to, h0 + perDay);
      if (b - a <= perDay / 2) out.hours.push([a, b]);
      else {
        out.days.push(h0 / perDay);
        if (a > h0) out.less.push([h0, a]);
        if (b < h0 + perDay) out.less.push([b, h0 + perDay]);
      }
    }
  }
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
