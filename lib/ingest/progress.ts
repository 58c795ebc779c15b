// Progress of a pass: a bar on a terminal, plain log lines otherwise.

export interface Progress {
  /** a new bar, of `total` things (`unit`, runs by default) `purpose` (to fetch, by default) */
  start(total: number, unit?: string, purpose?: string): void;
  tick(label: string): void;
  log(line: string): void;
  done(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  if (quiet) return { start() {}, tick() {}, log() {}, done() {} };
  const tty = !!stream.isTTY;
  let total = 0;
  let count = 0;
  let units = 'runs';
  let lastLine = 0;
  const draw = (label: string) => {
    const width = 30;
    const filled = total ? Math.round((count / total) * width) : width;
    const text = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count}/${total} ${units}  ${label}`.slice(0, (stream.columns || 100) - 1);
    stream.write(`\r\x1b[2K${text}`);
  };
  return {
    start(n, unit = 'runs', purpose = 'to fetch') {
      total = n;
      count = 0;
      units = unit;
      if (!tty) stream.write(`ingest: ${n} ${unit} ${purpose}\n`);
      else if (n) draw('');
    },
    tick(label) {
      count++;
      if (tty) draw(label);
      else if (Date.now() - lastLine > 5000 || count === total) {
        lastLine = Date.now();
        stream.write(`ingest: ${count}/${total} ${units} (${label})\n`);
      }
    },
    log(line) {
      if (tty) stream.write('\r\x1b[2K');
      stream.write(`${line}\n`);
    },
    done() {
      if (tty && total) stream.write('\r\x1b[2K');
    },
  };
}
