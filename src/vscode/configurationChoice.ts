/**
 * The configuration a model class shows, as the user picks it from the class's CodeLens or the command
 * palette: kept for the workspace by program (a file, or a notebook's cells), sent with each analysis, which
 * shows it wherever it builds a class or layer (core/analysis/documented.ts).
 */
import * as vscode from 'vscode';
import type { ModuleResult } from '../core/analysis/analyze';
import { elsewhereText } from '../core/analysis/results';
import type { Span } from '../core/ir/expr';
import { lensText, visibleControls } from '../core/present/controls';
import { groupDigits } from '../core/values/symbolic';
import { explainTarget } from './commands';
import type { AnalysisService, Chosen } from './documents';
import { programKey } from './notebookCells';
import { ownLabel } from '../syntax/ownConfigurations';
import { namesListed } from '../core/analysis/registries';

export const CHOOSE_CONFIGURATION_COMMAND = 'attentionLens.chooseConfiguration';

const STATE_KEY = 'attentionLens.chosenConfigurations';
/** Programs whose choices are kept; the oldest choice goes first. */
const MAX_PROGRAMS = 500;
/** The user's own configurations kept for one program. */
const MAX_OWN = 20;

type Stored = Record<string, Chosen>;

export class ConfigurationChoices implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the program whose choice changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {}

  /** A program's choices as kept (a value from an older or damaged state reads as none). */
  of(key: string): Chosen {
    const entry = this.stored()[key] as Partial<Chosen> | undefined;
    const strings = (list: unknown) =>
      Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
    return { chosen: strings(entry?.chosen), own: strings(entry?.own) };
  }

  /** What the analysis is given: the chosen configurations, and those of the user's own that are chosen. */
  request(key: string): Chosen {
    const { chosen, own } = this.of(key);
    return { chosen, own: own.filter((e) => chosen.includes(ownLabel(e))) };
  }

  /**
   * Makes `picked` the configuration shown of a class whose configurations are `among` (undefined: the one the
   * analysis shows by itself). A configuration builds every class of its model, so one choice serves them all.
   * `own`: `picked` is the user's own expression, kept to be picked again.
   */
  async choose(key: string, among: readonly string[], picked: string | undefined, own = false): Promise<void> {
    const before = this.of(key);
    // The class's configurations include the user's own it shows: picking another replaces it too.
    const chosen = before.chosen.filter((c) => !among.includes(c));
    if (picked !== undefined) chosen.push(own ? ownLabel(picked) : picked);
    const kept = own && picked !== undefined ? [picked, ...before.own.filter((e) => e !== picked)] : before.own;
    const entry: Chosen = { chosen, own: kept.slice(0, MAX_OWN) };
    const others = Object.entries(this.stored()).filter(([k]) => k !== key);
    const all: Stored = Object.fromEntries(
      entry.chosen.length || entry.own.length ? [...others, [key, entry]] : others,
    );
    const keys = Object.keys(all);
    for (const oldest of keys.slice(0, Math.max(0, keys.length - MAX_PROGRAMS))) delete all[oldest];
    await this.memento.update(STATE_KEY, all);
    this.changed.fire(key);
  }

  private stored(): Stored {
    const value = this.memento.get<unknown>(STATE_KEY);
    return value && typeof value === 'object' ? (value as Stored) : {};
  }

  dispose(): void {
    this.changed.dispose();
  }
}

interface Choice extends vscode.QuickPickItem {
  /** The configuration's context; undefined for the automatic choice. */
  readonly context: string | undefined;
  /** The user's own expression, or `ask` for the item that asks for one. */
  readonly own?: string | 'ask';
}

/**
 * Lists the configurations of the model class at `target` (`[uri, line, character]`, as the class lens passes
 * it) or under the cursor, each with its total, the user's own, and an item to count it with other sizes, and
 * shows the one picked. `pick`, one of their contexts, '' for the automatic choice or an expression of the
 * user's own, picks without asking (a keybinding's arguments). Returns the context picked, '' for the automatic
 * choice, undefined when nothing was picked.
 */
export async function chooseConfiguration(
  service: AnalysisService,
  choices: ConfigurationChoices,
  arg?: unknown,
  pick?: unknown,
): Promise<string | undefined> {
  const target = explainTarget(arg);
  const editor = vscode.window.activeTextEditor;
  const doc = target ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === target[0]) : editor?.document;
  if (!doc) return undefined;
  const analysis = await service.analysis(doc);
  const position = target ? new vscode.Position(target[1], target[2]) : editor?.selection.active;
  const around = (analysis?.modules ?? []).filter(
    (m) => position !== undefined && service.range(doc, m.extent).contains(position),
  );
  const cls = around.reduce<ModuleResult | undefined>(
    (best, m) => (!best || m.extent.end - m.extent.start < best.extent.end - best.extent.start ? m : best),
    undefined,
  );
  if (!cls) {
    void vscode.window.showInformationMessage(
      'Attention Lens: put the cursor in a model class to choose the configuration it shows.',
    );
    return undefined;
  }
  const configurations = cls.configurations ?? [];
  const key = programKey(doc);
  const { chosen, own } = choices.of(key);
  const listed = configurations.map((c) => c.context);
  const automatic = !configurations.some((c) => chosen.includes(c.context));
  // The choice in force is ticked; the configuration the class shows says so (Automatic shows one of them).
  const tick = (on: boolean) => (on ? '$(check) ' : '');
  const items: Choice[] = [
    {
      label: `${tick(automatic)}Automatic`,
      detail: 'The model the file builds, else the configuration’s defaults, else the first preset',
      context: undefined,
    },
    ...configurations.map((c) => ({
      label: `${tick(chosen.includes(c.context))}${lensText(c.context)}`,
      description: `${groupDigits(c.params.constant!)} params${sourceText(c, (span) => service.range(doc, span).start.line + 1)}${c.registered ? ` · ${lensText(c.registered.join(', '))}` : ''}${c.active ? ' · shown' : ''}`,
      // What it builds the class with, as Python would run it.
      detail: c.expression === undefined ? undefined : lensText(c.expression),
      context: c.context,
    })),
    ...own
      .filter((e) => !listed.includes(ownLabel(e)))
      .map((e) => ({ label: lensText(ownLabel(e)), description: 'your own', context: ownLabel(e), own: e })),
    {
      label: '$(add) Count with other sizes…',
      detail: 'A Python expression over this file’s names that builds the model, kept for this workspace',
      context: undefined,
      own: 'ask',
    },
  ];
  const given =
    typeof pick === 'string'
      ? (items.find((i) => i.own !== 'ask' && (i.context ?? '') === pick) ??
        // A name as the CLI's --config takes it: `gpt2-medium`, `params.json`, a registry's key.
        items.find((i) => pick !== '' && configurations.some((c) => c.context === i.context && namesListed(pick, c))) ??
        (pick.includes('(') ? { label: pick, context: ownLabel(pick), own: pick } : undefined))
      : undefined;
  const picked =
    given ??
    (await vscode.window.showQuickPick(items, {
      title: `Configuration ${cls.name} shows`,
      placeHolder: 'The classes and layers it builds show its sizes',
      matchOnDescription: true,
    }));
  if (!picked) return undefined;
  const expression = picked.own === 'ask' ? await askExpression(cls, configurations) : picked.own;
  if (picked.own === 'ask' && expression === undefined) return undefined;
  if (expression === undefined) {
    await choices.choose(key, listed, picked.context);
    return picked.context ?? '';
  }
  await choices.choose(key, listed, expression, true);
  const label = ownLabel(expression);
  const after = await service.analysis(doc);
  if (!after?.modules.some((m) => m.configurations?.some((c) => c.context === label)))
    void vscode.window.showWarningMessage(
      `Attention Lens: ${visibleControls(label)} builds no model with a total in this file (a name it does not define, a size it cannot follow, or an error PyTorch would raise).`,
    );
  return label;
}

/** The user's own configuration of `cls`, starting from the one it shows, else from what it needs. */
function askExpression(cls: ModuleResult, configurations: NonNullable<ModuleResult['configurations']>) {
  const shown =
    configurations.find((c) => c.active)?.expression ?? configurations.find((c) => c.expression)?.expression;
  const needed = /^needs arguments: (.*) ha(s|ve) no default$/.exec(cls.summary.reason ?? '')?.[1].split(', ') ?? [];
  return vscode.window.showInputBox({
    title: `Count ${cls.name} with other sizes`,
    prompt: 'A Python expression over this file’s names that builds the model, such as GPT(GPTConfig(n_layer=24))',
    value: shown ?? `${cls.name}(${needed.map((n) => `${n}=`).join(', ')})`,
    validateInput: (text) =>
      /^[A-Za-z_][\w.]*\s*\(.*\)\s*$/s.test(text.trim())
        ? undefined
        : 'A call that builds the model: a class or function of this file with its arguments',
  });
}

/** Where a configuration is stated: a line of this file, or another file's (`../build_sam.py:14`). */
function sourceText(c: NonNullable<ModuleResult['configurations']>[number], lineOf: (span: Span) => number): string {
  if (c.elsewhere) return ` · ${elsewhereText(c.elsewhere)}`;
  return c.source ? ` · line ${lineOf(c.source)}` : '';
}
