// Chart colours that read on light and dark backgrounds alike (a plain module: server pages use it too).
export const COLORS = {
  passed: '#43a047',
  failed: '#e53935',
  flaked: '#f59e0b',
  error: '#8e24aa',
  aborted: '#9e9e9e',
  runs: '#90a4ae',
  match: '#e53935',
  line: '#1e88e5',
} as const;
