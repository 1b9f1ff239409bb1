/**
 * Bounded work: the interpreter counts steps, not time (the core reads no clock), so a crafted file ends
 * as "unknown" after a fixed amount of work on any machine, and the same text always gives the same result.
 */
export class BudgetExceeded extends Error {
  constructor(readonly what: string) {
    super(`analysis budget exceeded: ${what}`);
  }
}

/**
 * The analysis was asked to stop (Budget.interrupted): a full analysis in the background gives way to the
 * editor's next request. Not a gap in the file: the whole analysis is dropped, nothing of it shown.
 */
export class AnalysisInterrupted extends Error {
  constructor() {
    super('analysis interrupted');
  }
}

export const LIMITS = {
  /** Statements and expressions evaluated for one file, across every entry point. */
  steps: 400_000,
  /**
   * Statements and expressions for the factories of one file in a full analysis, beside its own allowance:
   * timm's `vision_transformer.py` registers 157 models, which take some 1.8 million, its `efficientnet.py`
   * 146 built from block strings, some 7.6 million. An editor's first analysis of a file gives them half of
   * what the file has left, and a full one follows (analyze.ts).
   */
  factorySteps: 10_000_000,
  /** Statements and expressions for one entry point (a class built with its defaults, the module body). */
  entrySteps: 40_000,
  /**
   * Statements and expressions for one factory of a full analysis, on the factories' own allowance: timm's
   * `efficientnet_b7()` builds 55 blocks from strings, some 200,000.
   */
  factoryEntrySteps: 400_000,
  /** Nested calls of user functions and classes. */
  depth: 40,
  /** Passes of one loop that are unrolled; beyond, the loop is widened to unknown. */
  loopPasses: 1_024,
  /** Items of a list the interpreter builds (`[0] * 10**9` stays unknown). */
  listItems: 10_000,
  /**
   * Items that nested comprehensions stand for (`[[[0 for _ in range(a)] for _ in range(b)] for _ in
   * range(d)]`, kept as repeats, not built): past this Python raises MemoryError on any machine.
   */
  comprehensionItems: 2n ** 40n,
  /** Characters of a string the interpreter builds (a string doubled 27 times stays unknown). */
  stringLength: 65_536,
  /** Bits of an integer (`2 ** 2 ** 20` stays unknown). */
  intBits: 4_096,
  /** Terms of a polynomial (`(a + b + ...) ** 64` stays unknown). */
  polyTerms: 512,
  /** Degree of a polynomial. */
  polyDegree: 16,
} as const;

export class Budget {
  private steps = 0;
  private entry = 0;
  /** The file's allowance, lowered while a run may take only part of what is left (within). */
  private ceiling: number = LIMITS.steps;
  /** One entry point's allowance, raised while the factories of a full analysis run (aside). */
  private entryCeiling: number = LIMITS.entrySteps;
  depth = 0;

  /** Whether an entry point is running (nested ones run inside it, on its allowance). */
  inEntry = false;

  /** Asked every 1,024 steps: true stops the analysis with AnalysisInterrupted. */
  interrupted: (() => boolean) | undefined;

  /** Starts an entry point's own allowance. */
  startEntry(): void {
    this.entry = 0;
    this.inEntry = true;
  }

  endEntry(): void {
    this.inEntry = false;
  }

  tick(): void {
    this.steps++;
    this.entry++;
    if ((this.steps & 1023) === 0 && this.interrupted?.()) throw new AnalysisInterrupted();
    if (this.steps > this.ceiling) throw new BudgetExceeded('steps for the file');
    if (this.entry > this.entryCeiling)
      throw new BudgetExceeded(
        this.entryCeiling === LIMITS.entrySteps ? 'steps for one model' : 'steps for one factory',
      );
  }

  /** Steps a statement took in the last version, replayed instead of run: the file's allowance is spent alike. */
  charge(steps: number): void {
    this.steps += steps;
  }

  get spent(): number {
    return this.steps;
  }

  /** Whether the file's whole allowance is gone (later entry points are then skipped at once). */
  get exhausted(): boolean {
    return this.steps > this.ceiling;
  }

  /**
   * Runs `work` on `steps` of its own, beside the file's allowance (what it spends is not the file's), each of
   * its entry points on `entrySteps`.
   */
  aside<T>(steps: number, work: () => T, entrySteps: number = LIMITS.entrySteps): T {
    const [ceiling, start, entryCeiling] = [this.ceiling, this.steps, this.entryCeiling];
    this.ceiling = this.steps + steps;
    this.entryCeiling = entrySteps;
    try {
      return work();
    } finally {
      this.steps = start;
      this.ceiling = ceiling;
      this.entryCeiling = entryCeiling;
    }
  }

  /** Runs `work` on at most `steps` more of the file's allowance: past them it is exhausted, until `work` returns. */
  within<T>(steps: number, work: () => T): T {
    const ceiling = this.ceiling;
    this.ceiling = Math.min(ceiling, this.steps + steps);
    try {
      return work();
    } finally {
      this.ceiling = ceiling;
    }
  }
}
