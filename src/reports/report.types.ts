/** The Reports page's answer (GET /api/dashboard/reports); the dashboard imports these types. */

/** Median and 90th percentile in seconds (nearest rank); null when there is nothing to measure. */
export interface Spread {
  median_seconds: number | null;
  p90_seconds: number | null;
}

export interface Report {
  /** Calendar days in the workspace's time zone, both included. */
  range: { from: string; to: string; time_zone: string };
  conversations: { day: string; opened: number; closed: number }[];
  /**
   * Of the conversations closed in the range: everyone first (agent null), then each agent. An agent's
   * first response is over the conversations they answered first (`answered`); the resolution over those
   * counted for them when closed (`conversations`: the assignee, else whoever marked it done).
   */
  response_times: {
    agent: { id: string; name: string } | null;
    conversations: number;
    answered: number;
    first_response: Spread;
    resolution: Spread;
  }[];
  /**
   * Satisfaction ratings (1–5) customers gave in the range: everyone first (agent null), then each agent
   * the rated conversation counted for. `average` is null without ratings (to one decimal otherwise).
   */
  satisfaction: { agent: { id: string; name: string } | null; ratings: number; average: number | null }[];
  messages: { direction: string; status: string; count: number }[];
  /** Campaigns dispatched in the range. */
  campaigns: {
    id: string;
    name: string;
    sent_at: string | null;
    sent: number;
    delivered: number;
    read: number;
    replied: number;
    failed: number;
    failure_reasons: { code: number | null; title: string; reason: string; count: number }[];
    cost: number;
  }[];
  costs: {
    currency: string;
    categories: { category: string; billable: number; rate: number | null; cost: number | null }[];
    total: number;
  };
}

/** The price per billable message by Meta's pricing category, in one currency. */
export interface MessageRates {
  currency: string;
  rates: Record<string, number>;
}
