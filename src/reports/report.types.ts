/** The price per billable message by Meta's pricing category, in one currency (the workspace's own rates). */
export interface MessageRates {
  currency: string;
  rates: Record<string, number>;
}
