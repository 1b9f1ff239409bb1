/** The messages between the extension and its analysis worker (analysisWorker.ts). */
import type { AnalyzeRequest } from './documentEngine';
import type { Roots } from './editorFiles';

export type ToWorker =
  | { readonly type: 'roots'; readonly roots: Roots }
  | {
      readonly type: 'analyze';
      readonly id: number;
      readonly request: AnalyzeRequest;
      /**
       * The count of first analyses asked for when this was sent (WorkerEngine's `firsts`): a full analysis
       * stops, its last analysis standing, once another is asked for.
       */
      readonly firsts: number;
      /** Editors' texts changed since the last request, by path: undefined for one closed. */
      readonly openTexts: readonly (readonly [string, string | undefined])[];
    }
  | { readonly type: 'forget'; readonly key: string };

export type FromWorker =
  | { readonly type: 'ready' }
  /** The grammars could not be loaded: the extension analyses in its own thread instead. */
  | { readonly type: 'failed'; readonly message: string }
  /** `chunks`: an AnalyzeReply as packReply cut it (replyChunks.ts), moved rather than copied. */
  | { readonly type: 'analyzed'; readonly id: number; readonly chunks: readonly ArrayBuffer[] }
  | { readonly type: 'log'; readonly level: 'error' | 'trace'; readonly message: string };
