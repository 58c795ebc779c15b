// What history loads of jobs and runs: the shapes every answer and verdict reads.

export interface JobInfo {
  id: number;
  name: string;
  release?: string;
  platform?: string;
  upgrade: boolean;
  kind: string;
}

export interface RunInfo {
  id: number;
  jobId: number;
  buildId: string;
  started: number;
  state: string;
  testSetId: number | null;
  failed: number;
  flaked: number;
  installFailed: boolean;
  commit: string;
  payload: string;
  url: string;
}
