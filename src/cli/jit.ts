/**
 * V8's optimizing compiler, tuned for a run that ends in seconds. The interpreter's calls go to many shapes of
 * value, so V8 optimized its functions, threw the code away at the next shape and optimized them again: over
 * half of timm's model files, 534 optimizations took 6.1 s of a compiler thread, beside 5.3 s of analysis.
 * Optimizing later and inlining less cut the CPU time of a run by a quarter; the output is the same, since
 * no budget of the analysis counts time.
 */
import { setFlagsFromString } from 'v8';

export function tuneCompilerForShortRun(): void {
  setFlagsFromString('--max-inlined-bytecode-size-cumulative=100');
  setFlagsFromString('--interrupt-budget=600000');
}
