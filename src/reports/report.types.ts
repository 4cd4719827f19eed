/** The price per billable message by Meta's pricing category, in one currency (the workspace's own rates). */
export interface MessageRates {
  currency: string;
  rates: Record<string, number>;
}

/** Meta's rate card CSV to import, in effect from a day (the workspace's time zone). */
export interface ImportRateCard {
  csv: string;
  effective_from: string;
  /** The card's currency when the file has no Currency column. */
  currency?: string;
  /** Where it came from (the file's name). */
  source?: string;
}

/** An imported rate card as the Message rates page lists it. */
export interface RateCardSummary {
  effective_from: string;
  currency: string;
  source: string;
  imported_at: string;
  markets: number;
  rates: Record<string, Record<string, number>>;
}

/** A rate card as a workspace export carries it: market → category → price, in effect from its day. */
export interface RateCardData {
  effective_from: string;
  currency: string;
  source: string;
  rates: Record<string, Record<string, number>>;
}
