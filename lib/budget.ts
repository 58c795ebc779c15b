// Bounded work per request: an answer that loops over data checks its budget now and then and, once
// the time is spent or the asker has gone away, stops and says so in the answer (`partial`) rather
// than holding the server. The CLI runs without a time limit unless asked.

export type StopReason = 'time budget' | 'client went away';

/** What an answer that stopped early says about itself. */
export interface PartialAnswer {
  reason: StopReason;
  /** milliseconds spent before stopping */
  afterMs: number;
  /** what the answer covers, in words ("the runs of the last 3 of 14 days") */
  covered?: string;
}

/** An AbortSignal, or anything that says whether the asker has gone (an answer thread reads a flag in shared memory). */
export interface AbortFlag {
  readonly aborted: boolean;
}

export class Budget {
  private readonly start = performance.now();
  private readonly deadline: number;
  private calls = 0;
  private reason: StopReason | undefined;

  constructor(
    /** milliseconds; Infinity for none */
    readonly ms: number,
    readonly signal?: AbortFlag,
  ) {
    this.deadline = this.start + ms;
  }

  static unlimited(signal?: AbortFlag): Budget {
    return new Budget(Infinity, signal);
  }

  /** Whether to stop; cheap enough for an inner loop (reads the clock every 256th call). */
  spent(): boolean {
    if (this.reason) return true;
    if ((this.calls++ & 255) !== 0) return false;
    return this.check();
  }

  /** Whether to stop, reading the clock now. */
  check(): boolean {
    if (this.reason) return true;
    if (this.signal?.aborted) this.reason = 'client went away';
    else if (performance.now() > this.deadline) this.reason = 'time budget';
    return this.reason !== undefined;
  }

  /** Why it stopped, if it did. */
  get stopped(): StopReason | undefined {
    return this.reason;
  }

  /** The `partial` field of an answer that stopped, or undefined when it did not. */
  partial(covered?: string): PartialAnswer | undefined {
    if (!this.reason) return undefined;
    return { reason: this.reason, afterMs: Math.round(performance.now() - this.start), ...(covered ? { covered } : {}) };
  }
}
