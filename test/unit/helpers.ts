/** Runs the real grammars over source text, as the extension and the CLI do. */
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import type { NamedConfiguration } from '../../src/syntax/ownConfigurations';
import type { Analysis, LayerResult } from '../../src/core/analysis/analyze';
import { tensorSize, type LayerInstance, type Tensor } from '../../src/core/values/layer';
import type { Language } from '../../src/core/ir/source';
import { DocumentAnalyzer } from '../../src/syntax/documentAnalyzer';
import { fsWasmLoader } from '../../src/syntax/fsLoader';
import { Grammars } from '../../src/syntax/parser';
import { WorkspaceModels } from '../../src/syntax/workspaceModels';

let grammars: Promise<Grammars> | undefined;

export function loadGrammars(): Promise<Grammars> {
  grammars ??= Grammars.load(fsWasmLoader);
  return grammars;
}

/**
 * Analyses `text`; given the file it came from, imports of other files beside it are followed too
 * (through `models` when given, else read straight from disk). `chosen`: the configurations the user picked, `own` their own.
 */
export async function analyzeText(
  text: string,
  language: Language = 'python',
  file?: string,
  models?: WorkspaceModels,
  chosen?: readonly string[],
  own?: readonly string[],
  listed?: readonly NamedConfiguration[],
): Promise<Analysis> {
  const grammars = await loadGrammars();
  const analyzer = new DocumentAnalyzer(grammars, language);
  const workspace =
    models ??
    new WorkspaceModels(
      grammars,
      (f) => {
        try {
          return readFileSync(f, 'utf8');
        } catch {
          return undefined;
        }
      },
      (dir, suffix, max) => {
        try {
          return readdirSync(dir, { withFileTypes: true })
            .filter((e) => (suffix === '/' ? e.isDirectory() : !e.isDirectory() && e.name.endsWith(suffix)))
            .map((e) => e.name)
            .sort()
            .slice(0, max);
        } catch {
          return undefined;
        }
      },
    );
  try {
    const analysis = analyzer.update(
      text,
      undefined,
      file ? workspace.resolverFor(file, language) : undefined,
      undefined,
      chosen,
      own,
      listed,
    );
    if (!analysis) throw new Error('no analysis');
    return analysis;
  } finally {
    analyzer.dispose();
    if (!models) workspace.dispose();
  }
}

export const ROOT = path.resolve(__dirname, '../../..');

/** Tensors as the frameworks list them: stacked copies expanded to `layers.0`, `layers.1`, ... */
export function expandTensors(tensors: readonly Tensor[]): [string, number[]][] {
  const out: [string, number[]][] = [];
  const copies = new Map<string, [string, number[]][][]>();
  for (const t of tensors) {
    const shape = t.shape.map((d) => Number(d.constant));
    const n = t.repeat ? Number(t.repeat.constant) : 1;
    if (!t.name.includes('{i}')) {
      out.push([t.name, shape]);
      continue;
    }
    // Stacked copies are listed copy by copy: every tensor of layers.0, then of layers.1, ...
    const prefix = t.name.slice(0, t.name.indexOf('{i}'));
    const group = copies.get(prefix) ?? Array.from({ length: n }, () => []);
    group.forEach((list, i) => list.push([t.name.replace('{i}', String(i)), shape]));
    if (!copies.has(prefix)) {
      copies.set(prefix, group);
      out.push(['__group__' + prefix, []]);
    }
  }
  return out.flatMap(([name, shape]) =>
    name.startsWith('__group__') ? copies.get(name.slice(9))!.flat() : [[name, shape] as [string, number[]]],
  );
}

export function paramsOf(l: LayerResult): number | null {
  const c = l.layer.params?.constant;
  return c === undefined ? null : Number(c);
}

export function sumTensors(tensors: readonly Tensor[]): bigint | undefined {
  return tensors.reduce<bigint | undefined>(
    (acc, t) => (acc === undefined || tensorSize(t).constant === undefined ? undefined : acc + tensorSize(t).constant!),
    0n,
  );
}

/** Each projection's out_features shared among the roles it holds: a fused qkv gives each a third. */
export function widthsByRole(layer: LayerInstance, projections: Record<string, number>): Map<string, number> {
  const widths = new Map<string, number>();
  for (const t of layer.tensors) {
    if (!t.role?.startsWith('W_')) continue;
    const roles = t.role.replace(' stacked', '').split(', ');
    const width = projections[t.name.slice(0, t.name.lastIndexOf('.'))];
    for (const role of roles) widths.set(role, width / roles.length);
  }
  return widths;
}

/**
 * Forty factories, each building M after some 10,000 steps of work: more than an editor's first analysis gives
 * factories (half of the file's 400,000), far less than a full one's 2,500,000. f0 builds M(2), f39 M(41);
 * nn.Linear(d, 3,000) holds 3,000·d + 3,000.
 */
export const SLOW_FACTORIES =
  'import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self, d=1):\n        super().__init__()\n        n = 0\n' +
  '        for i in range(30):\n            for j in range(100):\n                n += 1\n' +
  '        self.fc = nn.Linear(d, n)\n' +
  Array.from({ length: 40 }, (_, i) => `def f${i}():\n    return M(${i + 2})\n`).join('');

/** Each class's total in the models a fixture of test/fixtures/models/pytorch builds, by class name. */
export async function classTotals(file: string): Promise<Record<string, number>> {
  const full = path.join(ROOT, 'test/fixtures/models/pytorch', file);
  const analysis = await analyzeText(readFileSync(full, 'utf8'), 'python', full);
  return Object.fromEntries(
    analysis.modules
      .map((m) => [m.name, Number((m.built ?? m).summary.params?.constant)] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
