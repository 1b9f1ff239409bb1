/** Findings as diagnostics (source `attention-lens`, stable codes), kept in step with each analysis. */
import * as vscode from 'vscode';
import type { Severity } from '../core/layer';
import { languageOf, type AnalysisService } from './documents';

export const DIAGNOSTIC_SOURCE = 'attention-lens';

const SEVERITIES: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class DiagnosticsPublisher implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly service: AnalysisService,
    /** Whether the surface is on for this document's language. */
    private readonly enabled: (doc: vscode.TextDocument) => boolean,
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
      await this.publishNow(doc);
    } catch (e) {
      this.log.error(`diagnostics of ${doc.uri.toString()} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }

  private async publishNow(doc: vscode.TextDocument): Promise<void> {
    if (!languageOf(doc) || doc.isClosed) return;
    if (!this.enabled(doc)) {
      this.collection.delete(doc.uri);
      return;
    }
    const version = doc.version;
    const analysis = await this.service.analysis(doc);
    // A newer edit has its own publication coming; a closed document must keep none.
    if (doc.version !== version || doc.isClosed) return;
    this.collection.set(doc.uri, (analysis?.findings ?? []).map((f) => {
      const d = new vscode.Diagnostic(this.service.range(doc, f.span), f.message, SEVERITIES[f.severity]);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = f.code;
      d.relatedInformation = f.related?.map((r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(doc.uri, this.service.range(doc, r.span)), r.message));
      return d;
    }));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
