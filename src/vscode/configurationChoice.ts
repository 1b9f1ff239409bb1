/**
 * The configuration a model class shows, as the user picks it from the class's CodeLens or the command
 * palette: kept for the workspace by program (a file, or a notebook's cells), sent with each analysis, which
 * shows it wherever it builds a class or layer (core/analysis/documented.ts).
 */
import * as vscode from 'vscode';
import type { ModuleResult } from '../core/analysis/analyze';
import { lensText } from '../core/present/controls';
import { groupDigits } from '../core/values/symbolic';
import { explainTarget } from './commands';
import type { AnalysisService } from './documents';
import { programKey } from './notebookCells';

export const CHOOSE_CONFIGURATION_COMMAND = 'attentionLens.chooseConfiguration';

const STATE_KEY = 'attentionLens.chosenConfigurations';
/** Programs whose choices are kept; the oldest choice goes first. */
const MAX_PROGRAMS = 500;

type Stored = Record<string, string[]>;

export class ConfigurationChoices implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the program whose choice changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {}

  /** The configurations chosen in a program, by their contexts. */
  of(key: string): readonly string[] {
    const list = this.stored()[key];
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
  }

  /**
   * Makes `picked` the configuration shown of a class whose configurations are `among` (undefined: the one the
   * analysis shows by itself). A configuration builds every class of its model, so one choice serves them all.
   */
  async choose(key: string, among: readonly string[], picked: string | undefined): Promise<void> {
    const kept = this.of(key).filter((c) => !among.includes(c));
    if (picked !== undefined) kept.push(picked);
    const others = Object.entries(this.stored()).filter(([k]) => k !== key);
    const all: Stored = Object.fromEntries(kept.length ? [...others, [key, kept]] : others);
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
  readonly context: string | undefined;
}

/**
 * Lists the configurations of the model class at `target` (`[uri, line, character]`, as the class lens passes
 * it) or under the cursor, each with its total, and shows the one picked; `pick`, one of their contexts or ''
 * for the automatic choice, picks without asking (a keybinding's arguments). Returns the context picked, ''
 * for the automatic choice, undefined when nothing was picked.
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
  const configurations = cls?.configurations ?? [];
  if (!cls || configurations.length < 2) {
    void vscode.window.showInformationMessage(
      cls
        ? `Attention Lens: ${cls.name} is built in ${configurations.length ? 'one configuration' : 'no configuration with a total'}, so there is none to choose.`
        : 'Attention Lens: put the cursor in a model class to choose the configuration it shows.',
    );
    return undefined;
  }
  const key = programKey(doc);
  const chosen = choices.of(key);
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
      description: `${groupDigits(c.params.constant!)} params${c.active ? ' · shown' : ''}`,
      // What it builds the class with, as Python would run it.
      detail: c.expression === undefined ? undefined : lensText(c.expression),
      context: c.context,
    })),
  ];
  const given = typeof pick === 'string' ? items.find((i) => (i.context ?? '') === pick) : undefined;
  const picked =
    given ??
    (await vscode.window.showQuickPick(items, {
      title: `Configuration ${cls.name} shows`,
      placeHolder: 'The classes and layers it builds show its sizes',
      matchOnDescription: true,
    }));
  if (!picked) return undefined;
  await choices.choose(
    key,
    configurations.map((c) => c.context),
    picked.context,
  );
  return picked.context ?? '';
}
