// Progress of a pass: a bar on a terminal, plain log lines otherwise.

export interface Progress {
  start(total: number): void;
  tick(label: string): void;
  log(line: string): void;
  done(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  if (quiet) return { start() {}, tick() {}, log() {}, done() {} };
  const tty = !!stream.isTTY;
  let total = 0;
  let count = 0;
  let lastLine = 0;
  const draw = (label: string) => {
    const width = 30;
    const filled = total ? Math.round((count / total) * width) : width;
    const text = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count}/${total} runs  ${label}`.slice(0, (stream.columns || 100) - 1);
    stream.write(`\r\x1b[2K${text}`);
  };
  return {
    start(n) {
      total = n;
      count = 0;
      if (!tty) stream.write(`ingest: ${n} runs to fetch\n`);
    },
    tick(label) {
      count++;
      if (tty) draw(label);
      else if (Date.now() - lastLine > 5000 || count === total) {
        lastLine = Date.now();
        stream.write(`ingest: ${count}/${total} runs (${label})\n`);
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
