import { errors, type AppError } from '../shared/errors.js';
import type { ModelUnavailable } from './ai-model.js';

/** What a 429 from the endpoint without Retry-After is answered with: a short wait, as OpenAI's limits are per minute. */
const RATE_LIMIT_RETRY_SECONDS = 5;

/**
 * Why the model gave no answer, as the API says it to the person who asked: not set up (422, naming
 * where an admin sets it up), the month's budget spent (429 until the month turns), and the endpoint's
 * own failure with a gateway's status (502 failed, 503 rate limiting, 504 timeout), never a 500.
 */
export function modelProblem(error: ModelUnavailable, now: Date): AppError {
  switch (error.reason) {
    case 'not_configured':
      return errors.aiModelNotConfigured();
    case 'budget_exhausted':
      return errors.aiBudgetExhausted(error.message, secondsToNextMonth(now));
    case 'rate_limited':
      return errors.aiModelRateLimited(
        error.message,
        error.retryAfterMs === undefined ? RATE_LIMIT_RETRY_SECONDS : Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
      );
    case 'timeout':
      return errors.aiModelTimeout(error.message);
    case 'model_error':
      return errors.aiModelFailed(error.message);
  }
}

/** Seconds until the next calendar month (UTC), when the ledger's month, and so the budget, starts again. */
function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
