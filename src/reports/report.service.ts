import { DateTime } from 'luxon';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors, type FieldError } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { canonicalMarket } from './rate-card.js';
import { parseRateCardCsv } from './rate-card-csv.js';
import { reportRepository } from './report.repository.js';
import type { ImportRateCard, MessageRates, RateCardData, RateCardSummary } from './report.types.js';
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
      if (!isDay(input.effective_from)) throw errors.invalid(reportProblems.problem('effective_from', 'date_format'));
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

    /** The workspace's rate cards as its export writes them, the newest first (restoreRateCards reads them back). */
    async exportRateCards(caller: Caller): Promise<RateCardData[]> {
      return (await repository().rateCards(caller.workspaceId)).map(({ effective_from, currency, source, rates }) => ({
        effective_from,
        currency,
        source,
        rates: JSON.parse(rates) as RateCardData['rates'],
      }));
    },

    /**
     * What stops a workspace document's cards (at JSON Pointer `path`) from being restored: a day that is
     * none, a market Meta's card does not know, a currency other than the one the workspace prices in
     * (else the document's first card's). Checked with the rest of the document, before anything is written.
     */
    async rateCardProblems(caller: Caller, cards: RateCardData[], path: string): Promise<FieldError[]> {
      const currency = (await pricingCurrency(caller.workspaceId)) ?? cards[0]?.currency;
      return cards.flatMap((card, i) => [
        ...(isDay(card.effective_from) ? [] : [reportProblems.problem(`${path}/${i}/effective_from`, 'date_format')]),
        ...(!currency || !CURRENCIES.has(currency)
          ? [reportProblems.problem(`${path}/${i}/currency`, 'currency_code')]
          : card.currency === currency
            ? []
            : [reportProblems.problem(`${path}/${i}/currency`, 'currency_of_workspace', { currency })]),
        ...Object.keys(card.rates)
          .filter((market) => !canonicalMarket(market))
          .map((market) => reportProblems.problem(`${path}/${i}/rates/${market}`, 'unknown_market')),
      ]);
    },

    /**
     * Adds a document's cards (checked by rateCardProblems) the workspace has no card for on their day;
     * one it has is left as it is, as the dashboard never replaces a card silently.
     */
    async restoreRateCards(caller: Caller, cards: RateCardData[]): Promise<{ created: number; skipped: number }> {
      let created = 0;
      for (const card of cards) {
        const rates = Object.entries(card.rates).map(([market, prices]) => [canonicalMarket(market)!, prices]);
        const row = {
          id: newId(),
          workspace_id: caller.workspaceId,
          ...card,
          rates: JSON.stringify(Object.fromEntries(rates)),
          imported_at: toStoredTimestamp(clock.now()),
        };
        if (await repository().addRateCard(row)) created += 1;
      }
      return { created, skipped: cards.length - created };
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
    const other = await pricingCurrency(workspaceId);
    if (other && other !== currency)
      throw errors.invalid(reportProblems.problem('currency', 'currency_of_workspace', { currency: other }));
    return currency;
  }

  /** The currency the workspace prices in: its cards', else its rates' when it has any; none yet otherwise. */
  async function pricingCurrency(workspaceId: string): Promise<string | undefined> {
    const rates = await repository().rates(workspaceId);
    const hasRates = rates && Object.keys(JSON.parse(rates.rates) as object).length > 0;
    return (await cardCurrency(workspaceId)) ?? (hasRates ? rates.currency : undefined);
  }
}

const isDay = (text: string) => DATE.test(text) && DateTime.fromISO(text).isValid;

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
