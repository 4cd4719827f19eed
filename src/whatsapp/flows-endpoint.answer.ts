import type { FastifyBaseLogger } from 'fastify';
import type { FlowsErrorNotification, OpenedEndpoint } from '../flows-endpoint/index.js';

/**
 * What Parley answers a decrypted WhatsApp Flows request, in Meta's terms ("Implementing Endpoint for
 * Flows" → "Implement Endpoint Logic"): the health check and error notifications itself, every other
 * request (INIT, data_exchange, BACK) with the answer of who answers the number's screens.
 */
export type FlowAnswer =
  /** Encrypted for Meta as is. */
  | { kind: 'answer'; answer: object }
  /** Meta's 427: the Flow token is no longer valid; `error_msg` is what the person sees. */
  | { kind: 'token_invalid'; errorMessage: string | null }
  /** Nothing to show: Meta's client shows its generic error. */
  | { kind: 'unanswered' };

/** Meta's "Health Check Response Payload". */
const ACTIVE = { data: { status: 'active' } };
/** Meta's "Error Notification Response Payload". */
const ACKNOWLEDGED = { data: { acknowledged: true } };
/** Shown on the screen the person is on when the screen got no answer (Meta's `error_message`). */
const NOT_ANSWERED = 'Something went wrong. Please try again.';

export async function answerFlowRequest(
  request: Record<string, unknown>,
  endpoint: OpenedEndpoint,
  log: FastifyBaseLogger,
): Promise<FlowAnswer> {
  if (request.action === 'ping') return { kind: 'answer', answer: ACTIVE };
  const error = errorOf(request);
  if (error !== null) {
    log.warn({ flows_error: error.error, screen: error.screen }, 'a WhatsApp Flow reported an error in an answer');
    await endpoint.noteError(error);
    return { kind: 'answer', answer: ACKNOWLEDGED };
  }
  const relayed = await endpoint.relay(request);
  switch (relayed.outcome) {
    case 'answered':
      return { kind: 'answer', answer: relayed.answer };
    case 'token_invalid':
      return { kind: 'token_invalid', errorMessage: relayed.errorMessage };
    case 'failed': {
      log.warn({ reason: relayed.reason, action: request.action }, 'a Flow screen got no answer');
      // Meta's graceful answer to a request it cannot serve: the same screen, with an error message.
      const screen = typeof request.screen === 'string' && request.screen !== '' ? request.screen : null;
      if (screen === null) return { kind: 'unanswered' };
      return { kind: 'answer', answer: { screen, data: { error_message: NOT_ANSWERED } } };
    }
  }
}

/**
 * An error notification: its key (Meta's sample sends it as `data.error`, its field table as
 * `data.error_key`), Meta's words and where it happened; null for any other request.
 */
function errorOf(request: Record<string, unknown>): FlowsErrorNotification | null {
  const data = request.data;
  if (typeof data !== 'object' || data === null) return null;
  const { error: key, error_key: fieldKey, error_message: message } = data as Record<string, unknown>;
  const error = typeof key === 'string' ? key : typeof fieldKey === 'string' ? fieldKey : null;
  if (error === null) return null;
  return {
    error,
    errorMessage: typeof message === 'string' ? message : null,
    screen: stringOrNull(request.screen),
    flowToken: stringOrNull(request.flow_token),
  };
}

const stringOrNull = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
