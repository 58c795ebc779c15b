// The shape of a job as every answer reads it.

export interface JobInfo {
  id: number;
  name: string;
  release?: string;
  platform?: string;
  upgrade: boolean;
  kind: string;
}
