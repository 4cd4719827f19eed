import type { Report } from './report.types.js';

/** One rating as the report reads it: its value and the agent the rated conversation counted for. */
interface RatingRow {
  rating: number | null;
  agent_id: string | null;
  agent_name: string | null;
}

const average = (values: number[]) =>
  values.length === 0 ? null : Math.round((values.reduce((sum, v) => sum + v, 0) / values.length) * 10) / 10;

/** The average rating and how many, for everyone and then per agent (agents in order of first rating). */
export function satisfactionByAgent(rows: RatingRow[]): Report['satisfaction'] {
  const rated = rows.filter((row): row is RatingRow & { rating: number } => row.rating !== null);
  const agents = new Map<string, { id: string; name: string }>();
  for (const row of rated) {
    if (row.agent_id && !agents.has(row.agent_id)) {
      agents.set(row.agent_id, { id: row.agent_id, name: row.agent_name ?? 'Removed member' });
    }
  }
  const figures = (agent: { id: string; name: string } | null) => {
    const own = agent ? rated.filter((row) => row.agent_id === agent.id) : rated;
    return { agent, ratings: own.length, average: average(own.map((row) => row.rating)) };
  };
  return [figures(null), ...[...agents.values()].map(figures)];
}
