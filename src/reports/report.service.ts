import { DateTime } from 'luxon';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { parseRateCardCsv } from './rate-card-csv.js';
import { reportRepository } from './report.repository.js';
import type { ImportRateCard, MessageRates, RateCardSummary } from './report.types.js';
import { reportProblems } from './report.problems.js';

/** No WhatsApp message costs this much in any currency Meta bills in; a larger number is a typing slip. */
const MAX_RATE = 100_000;

const NO_RATES: MessageRates = { currency: 'USD', rates: {} };
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The workspace's pricing (Reports → Message rates): its own prices per charged message by category,
 * and the rate cards it imported by market, in one currency (see pricing.ts for how they price).
 */
export function createReportService(deps: Deps) {
  const { db, clock, newId } = deps;
  const repository = () => reportRepository(db);

  /** The currency of the workspace's cards, when it has any: its rates and further cards must use it. */
  const cardCurrency = async (workspaceId: string) => (await repository().rateCards(workspaceId))[0]?.currency;

  return {
    async rates(caller: Caller): Promise<MessageRates> {
      const row = await repository().rates(caller.workspaceId);
      return row ? { currency: row.currency, rates: JSON.parse(row.rates) as Record<string, number> } : NO_RATES;
    },

    /** Sets the workspace's prices per charged message (replacing the previous ones), in its cards' currency. */
    async saveRates(caller: Caller, input: MessageRates): Promise<MessageRates> {
      checkRates(input);
      const currency = await cardCurrency(caller.workspaceId);
      if (currency && currency !== input.currency)
        throw errors.invalid(reportProblems.problem('currency', 'currency_of_cards', { currency }));
      await repository().saveRates(
        caller.workspaceId,
        input.currency,
        JSON.stringify(input.rates),
        toStoredTimestamp(clock.now()),
      );
      return input;
    },

    /** The workspace's rate cards, the newest first. */
    async rateCards(caller: Caller): Promise<RateCardSummary[]> {
      return (await repository().rateCards(caller.workspaceId)).map(presentCard);
    },

    /**
     * Imports Meta's rate card CSV, in effect from its day: a 400 naming the row and column of what it
     * cannot read, a 409 when a card is already in effect from that day (delete it first).
     */
    async importRateCard(caller: Caller, input: ImportRateCard): Promise<RateCardSummary> {
      if (!DATE.test(input.effective_from) || !DateTime.fromISO(input.effective_from).isValid)
        throw errors.invalid(reportProblems.problem('effective_from', 'date_format'));
      const card = parseRateCardCsv(input.csv);
      const currency = await agreedCurrency(caller.workspaceId, card.currency ?? input.currency);
      const row = {
        id: newId(),
        workspace_id: caller.workspaceId,
        effective_from: input.effective_from,
        currency,
        rates: JSON.stringify(card.rates),
        source: input.source?.trim() || 'CSV',
        imported_at: toStoredTimestamp(clock.now()),
      };
      if (!(await repository().addRateCard(row)))
        throw errors.taken(reportProblems.problem('effective_from', 'card_date_taken'));
      return presentCard(row);
    },

    async deleteRateCard(caller: Caller, effectiveFrom: string): Promise<void> {
      if (!(await repository().deleteRateCard(caller.workspaceId, effectiveFrom)))
        throw errors.notFound('rate card', 'effective_from');
    },
  };

  /**
   * A new card's currency: the file's, else the one asked for. A workspace prices in one currency, so it
   * must be its other cards' and, when it has rates per category, theirs.
   */
  async function agreedCurrency(workspaceId: string, currency: string | undefined): Promise<string> {
    if (!currency || !CURRENCIES.has(currency))
      throw errors.invalid(reportProblems.problem('currency', 'currency_code'));
    const rates = await repository().rates(workspaceId);
    const hasRates = rates && Object.keys(JSON.parse(rates.rates) as object).length > 0;
    const other = (await cardCurrency(workspaceId)) ?? (hasRates ? rates.currency : undefined);
    if (other && other !== currency)
      throw errors.invalid(reportProblems.problem('currency', 'currency_of_workspace', { currency: other }));
    return currency;
  }
}

export type ReportService = ReturnType<typeof createReportService>;

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

function presentCard(row: {
  effective_from: string;
  currency: string;
  rates: string;
  source: string;
  imported_at: string;
}): RateCardSummary {
  const rates = JSON.parse(row.rates) as Record<string, Record<string, number>>;
  return {
    effective_from: row.effective_from,
    currency: row.currency,
    source: row.source,
    imported_at: formatTimestamp(row.imported_at),
    markets: Object.keys(rates).length,
    rates,
  };
}

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
