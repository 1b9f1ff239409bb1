/** Findings as diagnostics (source `attention-lens`, stable codes), kept in step with each analysis. */
import * as vscode from 'vscode';
import type { Finding, Severity } from '../core/values/layer';
import { languageOf, type AnalysisService } from './documents';
import type { Settings, SeverityLevel } from './settings';
import { hostTurns } from '../service/hostTurns';

export const DIAGNOSTIC_SOURCE = 'attention-lens';

const SEVERITIES: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

const LEVELS: Record<Exclude<SeverityLevel, 'off'>, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** The finding's own severity, or the one `attentionLens.diagnostics.severity` sets for its code; undefined for `off`. */
function severityOf(f: Finding, levels: Settings['severity']): vscode.DiagnosticSeverity | undefined {
  const level = levels[f.code];
  if (level === 'off') return undefined;
  return level ? LEVELS[level] : SEVERITIES[f.severity];
}

export class DiagnosticsPublisher implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly service: AnalysisService,
    /** Whether the surface is on for this document's language, and the severity set per code. */
    private readonly settings: (doc: vscode.TextDocument) => Pick<Settings, 'diagnostics' | 'severity'>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables = [
      this.collection,
      service.onDidAnalyze((doc) => void this.publish(doc)),
      vscode.workspace.onDidOpenTextDocument((doc) => void this.publish(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.collection.delete(doc.uri)),
    ];
    this.refreshAll();
  }

  refreshAll(): void {
    for (const doc of vscode.workspace.textDocuments) void this.publish(doc);
  }

  private async publish(doc: vscode.TextDocument): Promise<void> {
    try {
      await hostTurns.timeAsync('diagnostics', () => this.publishNow(doc));
    } catch (e) {
      this.log.error(
        `diagnostics of ${doc.uri.toString()} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
    }
  }

  private async publishNow(doc: vscode.TextDocument): Promise<void> {
    if (!languageOf(doc) || doc.isClosed) return;
    const settings = this.settings(doc);
    if (!settings.diagnostics) {
      this.collection.delete(doc.uri);
      return;
    }
    const version = doc.version;
    const analysis = await this.service.analysis(doc);
    // A newer edit has its own publication coming; a closed document must keep none.
    if (doc.version !== version || doc.isClosed) return;
    this.collection.set(
      doc.uri,
      (analysis?.findings ?? []).flatMap((f) => {
        const severity = severityOf(f, settings.severity);
        if (severity === undefined) return [];
        const d = new vscode.Diagnostic(this.service.range(doc, f.span), f.message, severity);
        d.source = DIAGNOSTIC_SOURCE;
        d.code = f.code;
        d.relatedInformation = f.related?.map(
          (r) =>
            new vscode.DiagnosticRelatedInformation(
              new vscode.Location(doc.uri, this.service.range(doc, r.span)),
              r.message,
            ),
        );
        return d;
      }),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
