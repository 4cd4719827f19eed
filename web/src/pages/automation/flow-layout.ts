import { Graph, layout } from '@dagrejs/dagre';
import { exitsOf, type Card } from './flow-model';

/** A card's width on the canvas (its CSS says the same: .flow-card). */
export const CARD_WIDTH = 240;
/** Title, type and a line of text, then one row per exit: what the layout reserves for a card. */
const cardHeight = (card: Card) => 86 + exitsOf(card).length * 26;

export interface Point {
  x: number;
  y: number;
}

/**
 * Positions for the cards, by card key, from dagre's layered layout: the start leftmost (rightmost when
 * the page reads right to left), each card left of the ones its exits lead to, crossings kept few.
 */
export function autoLayout(cards: Card[], start: string, rtl: boolean): Map<string, Point> {
  const graph = new Graph({ multigraph: true });
  graph.setGraph({ rankdir: rtl ? 'RL' : 'LR', nodesep: 28, ranksep: 90, marginx: 16, marginy: 16 });
  graph.setDefaultEdgeLabel(() => ({}));
  const keyOf = new Map(cards.map((c) => [c.node.id, c.key]));
  // The start first, so dagre's ordering puts it at the top of its rank.
  const ordered = [...cards].sort((a, b) => Number(b.node.id === start) - Number(a.node.id === start));
  for (const card of ordered) graph.setNode(card.key, { width: CARD_WIDTH, height: cardHeight(card) });
  for (const card of ordered) {
    for (const exit of exitsOf(card)) {
      const target = keyOf.get(exit.target);
      if (target && target !== card.key) graph.setEdge(card.key, target, {}, exit.key);
    }
  }
  layout(graph);
  // dagre gives centres; the canvas places a card by its top-left corner.
  return new Map(
    cards.map((card) => {
      const { x, y, width, height } = graph.node(card.key) as { x: number; y: number; width: number; height: number };
      return [card.key, { x: x - width / 2, y: y - height / 2 }];
    }),
  );
}

/** Where a card added by hand goes: right of the selected card (or the last one), below what is there. */
export function placeNew(positions: Map<string, Point>, near: string | null): Point {
  const anchor = (near && positions.get(near)) || [...positions.values()].at(-1);
  if (!anchor) return { x: 16, y: 16 };
  const x = anchor.x + CARD_WIDTH + 90;
  const below = [...positions.values()].filter((p) => Math.abs(p.x - x) < CARD_WIDTH).map((p) => p.y + 160);
  return { x, y: Math.max(anchor.y, ...below) };
}
