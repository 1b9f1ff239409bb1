/**
 * One generated input through the analysis and every surface, as the editor and the CLI run it: a fresh
 * analyser, imports resolved among the input's own generated files (never the disk), the time it took.
 */
import { performance } from 'perf_hooks';
import type { Analysis } from '../../src/core/analysis/analyze';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import type { Grammars } from '../../src/syntax/parser';
import { WorkspaceModels } from '../../src/syntax/workspaceModels';
import type { FuzzInput } from './input';
import { printed, type Printed } from './surfaces';

export interface Outcome {
  readonly analysis: Analysis | undefined;
  readonly printed: Printed;
  /** Analysis and printing, in milliseconds. */
  readonly ms: number;
}

/** The path an input without one is analysed at: its imports find nothing. */
export const DEFAULT_PATH = '/fuzz/input';

export function analyseInput(grammars: Grammars, input: FuzzInput): Outcome {
  const start = performance.now();
  const file = input.path ?? `${DEFAULT_PATH}.${input.language === 'python' ? 'py' : 'ts'}`;
  const analyzer = new DocumentAnalyzer(grammars, input.language);
  const workspace = new WorkspaceModels(grammars, (f) => input.files?.get(f));
  try {
    const analysis = analyzer.update(input.text, undefined, workspace.resolverFor(file, input.language));
    return { analysis, printed: printed(file, input.language, analysis), ms: performance.now() - start };
  } finally {
    analyzer.dispose();
    workspace.dispose();
  }
}
