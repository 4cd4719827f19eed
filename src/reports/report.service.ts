import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { reportRepository } from './report.repository.js';
import type { MessageRates } from './report.types.js';
import { reportProblems } from './report.problems.js';

/** No WhatsApp message costs this much in any currency Meta bills in; a larger number is a typing slip. */
const MAX_RATE = 100_000;

const NO_RATES: MessageRates = { currency: 'USD', rates: {} };

/**
 * The workspace's own prices per billable message (Reports → Message rates): they price the campaign
 * estimate and, where set, override Meta's rate card in the campaign report.
 */
export function createReportService(deps: Deps) {
  const { db, clock } = deps;
  const repository = () => reportRepository(db);

  return {
    async rates(caller: Caller): Promise<MessageRates> {
      const row = await repository().rates(caller.workspaceId);
      return row ? { currency: row.currency, rates: JSON.parse(row.rates) as Record<string, number> } : NO_RATES;
    },

    /** Sets the workspace's prices per billable message (replacing the previous ones). */
    async saveRates(caller: Caller, input: MessageRates): Promise<MessageRates> {
      checkRates(input);
      await repository().saveRates(
        caller.workspaceId,
        input.currency,
        JSON.stringify(input.rates),
        toStoredTimestamp(clock.now()),
      );
      return input;
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Refuses (400, naming the field) a currency that is not an ISO 4217 code or a negative or absurd rate. */
function checkRates(input: MessageRates): void {
  if (!CURRENCIES.has(input.currency)) {
    throw errors.invalid(reportProblems.problem('currency', 'currency_code'));
  }
  for (const [category, rate] of Object.entries(input.rates)) {
    if (!(rate >= 0 && rate <= MAX_RATE)) {
      throw errors.invalid(reportProblems.problem(`rates/${category}`, 'rate_range', { max: MAX_RATE }));
    }
  }
}
