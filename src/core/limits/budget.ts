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
   * timm's `vision_transformer.py` registers 157 models, which take some 1.7 million. An editor's first
   * analysis of a file gives them half of what the file has left, and a full one follows (analyze.ts).
   */
  factorySteps: 2_500_000,
  /** Statements and expressions for one entry point (a class built with its defaults, the module body). */
  entrySteps: 40_000,
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
    if (this.entry > LIMITS.entrySteps) throw new BudgetExceeded('steps for one model');
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

  /** Runs `work` on `steps` of its own, beside the file's allowance: what it spends is not the file's. */
  aside<T>(steps: number, work: () => T): T {
    const [ceiling, start] = [this.ceiling, this.steps];
    this.ceiling = this.steps + steps;
    try {
      return work();
    } finally {
      this.steps = start;
      this.ceiling = ceiling;
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
