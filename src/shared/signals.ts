/** What became of one send through a channel (the channel's provider classifies it: channels/provider.ts). */
export type SendOutcomeKind = 'accepted' | 'retry' | 'failed' | 'unknown';

/** What became of a webhook delivery attempt: delivered, due again later, or given up. */
export type DeliveryResult = 'delivered' | 'retry' | 'failed';

/**
 * What the background workers report as they work, for this process's metrics (metrics.ts). The
 * workers call these without knowing who listens; every method is cheap and never throws.
 */
export interface Signals {
  /** One send through a channel (`null`: a workspace's built-in simulator) ended with `outcome`. */
  sendFinished(channelId: string | null, outcome: SendOutcomeKind): void;
  /** The outbox paused a number (`null`: a simulator) whose sends time out or fail on the channel's side. */
  numberPaused(channelId: string | null): void;
  /** One outgoing-webhook delivery attempt ended with `result`. */
  deliveryFinished(result: DeliveryResult): void;
  /** A scheduled job of `kind` started `lagMs` after it was due. */
  jobStarted(kind: string, lagMs: number): void;
  /** One background download of a received file ended: stored, to be retried, or given up. */
  mediaDownloaded(outcome: MediaDownloadOutcome): void;
  /** One call to a workspace's AI model ended: answered with its tokens and time, or refused (why). */
  modelCalled(call: ModelCall): void;
}

/** A workspace's AI model call, as metrics count it (ai-models/). */
export interface ModelCall {
  /** Why it was asked: assistant, copilot, eval, test, embeddings. */
  purpose: string;
  /** `answered`, or why not (not_configured, timeout, rate_limited, budget_exhausted, model_error). */
  outcome: string;
  promptTokens: number;
  completionTokens: number;
  /** Time inside the model call; 0 when it was refused before. */
  modelMs: number;
}

/** What became of a received file's download attempt. */
export type MediaDownloadOutcome = 'stored' | 'retry' | 'failed';

/** Signals nobody listens to: services built without metrics (the CLI, some tests). */
export const unobserved: Signals = {
  sendFinished: () => undefined,
  numberPaused: () => undefined,
  deliveryFinished: () => undefined,
  jobStarted: () => undefined,
  mediaDownloaded: () => undefined,
  modelCalled: () => undefined,
};
