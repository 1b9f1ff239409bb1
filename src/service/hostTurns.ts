/**
 * How long each kind of the extension's work held the extension host's thread in one turn: the thread every
 * extension's hovers, completions and typing share. The integration test reads the longest of each
 * (AttentionLensApi.stopTimingTurns) while a large file is typed into, to hold every one under 20 ms.
 *
 * A turn's time is the clock's, less the time the thread waited for a core (where Linux tells it) and the
 * garbage collector's pauses: on two cores shared with the worker, the editor's window and its server, a
 * turn of ours that takes 1 to 5 ms measured up to 33 ms by the clock at times; and the host's heap is every
 * extension's, its collection finishing in whichever turn is running.
 */
import { readFileSync } from 'fs';
import { PerformanceObserver } from 'perf_hooks';

interface Turn {
  readonly what: string;
  readonly start: number;
  readonly end: number;
  /** How long it waited for a core, where known. */
  readonly waited?: number;
}

/**
 * How long this thread has waited for a core, in ms, where Linux tells it: measured at each switch, not at
 * the scheduler's ticks as its time on a core is.
 */
function threadWaitMs(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return undefined;
  }
}

/** Lets the thread's other work run before going on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Turns kept to read: a few hundred an analysis. */
const KEPT = 20_000;

export class HostTurns {
  private turns: Turn[] = [];
  private pauses: { start: number; end: number }[] = [];
  private observer: PerformanceObserver | undefined;
  /** When work waiting for an analysis last went on (resume). */
  private resumed = { at: -Infinity, waited: undefined as number | undefined };

  /** Runs `work`, whose synchronous part is one turn's work of the kind `what`. */
  time<T>(what: string, work: () => T): T {
    const start = this.now();
    try {
      return work();
    } finally {
      this.record(what, start);
    }
  }

  /** Work waiting for an analysis goes on now, in a turn of its own. */
  resume(): void {
    this.resumed = this.now();
  }

  /**
   * Runs `work`, an asynchronous piece of work of the kind `what` that waits for nothing but an analysis (a
   * provider): timed whole when it ends in the turn it started in, else from the turn it went on in.
   */
  async timeAsync<T>(what: string, work: () => Promise<T>): Promise<T> {
    const start = this.now();
    let later = false;
    const turn = setImmediate(() => (later = true));
    try {
      return await work();
    } finally {
      clearImmediate(turn);
      if (!later) this.record(what, start);
      else if (this.resumed.at > start.at) this.record(what, this.resumed);
    }
  }

  /**
   * Work of the kind `what` split into turns: `yieldNow` ends a turn (timing it) and resumes in the next;
   * `end` times the last. The first turn starts now.
   */
  split(what: string): { readonly yieldNow: () => Promise<void>; end(): void } {
    let start = this.now();
    return {
      yieldNow: async () => {
        this.record(what, start);
        await nextTurn();
        start = this.now();
      },
      end: () => this.record(what, start),
    };
  }

  /**
   * Starts timing turns (until `stop`), forgetting those timed before; the collector's pauses are watched
   * from now on, which costs nothing while no one times.
   */
  start(): void {
    this.turns = [];
    this.pauses = [];
    this.observer ??= new PerformanceObserver((list) => {
      for (const e of list.getEntries()) this.pauses.push({ start: e.startTime, end: e.startTime + e.duration });
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** The longest turn of each kind since `start`, in milliseconds, the collector's pauses left out. */
  stop(): Record<string, number> {
    this.observer?.disconnect();
    this.observer = undefined;
    const longest: Record<string, number> = {};
    for (const t of this.turns) {
      const paused = this.pauses.reduce(
        (s, p) => s + Math.max(0, Math.min(t.end, p.end) - Math.max(t.start, p.start)),
        0,
      );
      longest[t.what] = Math.max(longest[t.what] ?? 0, t.end - t.start - (t.waited ?? 0) - paused);
    }
    this.turns = [];
    return longest;
  }

  /** The clock, and how long this thread waited for a core, while turns are timed. */
  private now(): { at: number; waited: number | undefined } {
    return { at: performance.now(), waited: this.observer ? threadWaitMs() : undefined };
  }

  private record(what: string, start: { at: number; waited: number | undefined }): void {
    if (!this.observer || this.turns.length >= KEPT) return;
    const end = this.now();
    const waited = start.waited !== undefined && end.waited !== undefined ? end.waited - start.waited : undefined;
    this.turns.push({ what, start: start.at, end: end.at, waited });
  }
}

/** The extension host's: one per thread. */
export const hostTurns = new HostTurns();
