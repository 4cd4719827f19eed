import type { ActionAnswer } from '../../api/client';
import type { Card } from './flow-model';

export type FlowStats = ActionAnswer<'get-flow-stats'>;

/**
 * Runs counted on the canvas (get-flow-stats): per drawn edge (`cardKey|exitKey`, as the canvas names its
 * edges) how many runs passed it, and per card how many are at it or ended there.
 */
export interface CanvasCounts {
  edges: Map<string, number>;
  cards: Map<string, number>;
}

export const NO_COUNTS: CanvasCounts = { edges: new Map(), cards: new Map() };

/**
 * The edge of the canvas an edge of the definition is: a card's exit, by the node it leaves and the
 * field's path under that node (`next`, `branches/1/next`…). An edge inside a card (a message to its
 * wait, the wait to its choice) is drawn as none: null.
 */
export function canvasEdge(cards: Card[], from: string, exit: string): string | null {
  for (const card of cards) {
    const key = (exitKey: string) => `${card.key}|${exitKey}`;
    if (card.node.id === from) {
      if (card.wait && exit === 'next') return null;
      return key(/^(branches\/\d+)\/next$/.exec(exit)?.[1] ?? exit);
    }
    if (card.wait?.id === from) {
      if (exit === 'on_timeout') return key('no_reply');
      return card.choice ? null : key('other');
    }
    if (card.choice?.id === from) {
      if (exit === 'default') return key('other');
      const branch = /^branches\/(\d+)\/next$/.exec(exit);
      const when = branch && (card.choice.branches as { when: { button_id?: string } }[])[Number(branch[1])];
      return when ? key(`choice/${when.when.button_id ?? ''}`) : null;
    }
  }
  return null;
}

/** The card a node of the definition is drawn in (its own, or the message's it is folded into). */
export function cardOfNode(cards: Card[], id: string): string | null {
  return cards.find((c) => c.node.id === id || c.wait?.id === id || c.choice?.id === id)?.key ?? null;
}

/** A version's (or one run's) counts, on the cards as drawn now; what the canvas no longer has is left out. */
export function countsOn(cards: Card[], stats: FlowStats | null): CanvasCounts {
  if (!stats) return NO_COUNTS;
  const edges = new Map<string, number>();
  for (const edge of stats.edges) {
    const at = canvasEdge(cards, edge.from, edge.exit);
    if (at) edges.set(at, (edges.get(at) ?? 0) + edge.runs);
  }
  const counts = new Map<string, number>();
  for (const node of stats.nodes) {
    const at = cardOfNode(cards, node.node_id);
    const runs = Object.values(node.runs).reduce((sum, n) => sum + n, 0);
    if (at) counts.set(at, (counts.get(at) ?? 0) + runs);
  }
  return { edges, cards: counts };
}

/** A run's path on the cards: the edges it took, lit, and every card they join or it is at (count 1 each). */
export function pathOn(cards: Card[], stats: FlowStats | null): CanvasCounts {
  if (!stats) return NO_COUNTS;
  const counts = countsOn(cards, stats);
  const passed = stats.edges.flatMap((e) => [cardOfNode(cards, e.from), cardOfNode(cards, e.to)]);
  for (const key of passed) if (key) counts.cards.set(key, 1);
  return counts;
}
