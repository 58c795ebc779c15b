// The jobs every answer names, with what their names say (release, platform, upgrade), and the job
// filter of the hot list, causes and test pages.
import { jobVariants } from '../parse/variants';
import type { Database } from '../store/db';
import type { JobInfo } from './types';
import { compileRegex } from '../patterns';

export interface JobFilter {
  /** regex over job names (a user's) */
  job?: string;
  /** exactly this job (a job page's; a name may be longer than any pattern) */
  jobName?: string;
  release?: string;
  platform?: string;
  upgrade?: boolean;
}

/**
 * What each job name says, parsed once per process: an answer loads the jobs twice (its own filter,
 * and the verdicts' lookback), and parsing 800 names made V8 optimize the parser in a CLI call.
 */
const variantsOfName = new Map<string, ReturnType<typeof jobVariants>>();

export async function loadJobs(db: Database): Promise<JobInfo[]> {
  const rows = await db.all<{ id: number; name: string }>('SELECT id, name FROM job ORDER BY name');
  return rows.map((r) => {
    let v = variantsOfName.get(r.name);
    if (!v) variantsOfName.set(r.name, (v = jobVariants(r.name)));
    return { id: r.id, name: r.name, release: v.release, platform: v.platform, upgrade: v.upgrade, kind: v.kind };
  });
}

/** The ids of the jobs the filter keeps, or null when it keeps all. */
export function filterJobs(jobs: JobInfo[], f: JobFilter): Set<number> | null {
  if (!f.job && f.jobName === undefined && !f.release && !f.platform && f.upgrade === undefined) return null;
  const re = f.job ? compileRegex(f.job, 'job') : undefined;
  return new Set(
    jobs
      .filter((j) => (!re || re.test(j.name)) && (f.jobName === undefined || j.name === f.jobName) && (!f.release || j.release === f.release) && (!f.platform || j.platform === f.platform) && (f.upgrade === undefined || j.upgrade === f.upgrade))
      .map((j) => j.id),
  );
}
