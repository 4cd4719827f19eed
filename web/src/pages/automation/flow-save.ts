import { action, type ActionAnswer, type ActionBody } from '../../api/client';
import type { Point } from './flow-layout';
import type { Card } from './flow-model';
import type { FlowNode } from './flow-nodes';

export type Flow = ActionAnswer<'get-flow'>;
export type Definition = { start: string; keywords: string[]; nodes: FlowNode[] };
/** Where the cards are, by node id (get-flow's `layout`). */
export type Layout = NonNullable<Flow['layout']>;

/**
 * The live version a flow gets when the builder first saves it as a draft (save-flow-draft needs a flow,
 * and every flow has a live version): one node that ends at once, started by no keyword.
 */
const UNPUBLISHED_ID = 'not_published_yet';
const UNPUBLISHED = { start: UNPUBLISHED_ID, nodes: [{ id: UNPUBLISHED_ID, type: 'end' as const }] };

/** Whether the flow has never been published: its live version is the one its first draft gave it. */
export const neverPublished = (flow: Flow) =>
  flow.version === 1 && flow.nodes.length === 1 && flow.start === UNPUBLISHED_ID;

/**
 * Keeps what the builder made as the flow's draft, however incomplete, with the cards' places; a new flow
 * is made first. The builder edits nodes loosely typed: the server checks the draft and lists its problems.
 */
export async function saveDraft(flow: Flow | null, name: string, definition: Definition, layout: Layout) {
  const id = flow?.id ?? (await action('save-flow', { name, definition: UNPUBLISHED })).id;
  const draft = definition as ActionBody<'save-flow-draft'>['definition'];
  return action('save-flow-draft', { flow_id: id, name, definition: draft, layout });
}

/** The definition the builder opens: the draft when there is one (in the shape of a definition), else the live one. */
export function openedDefinition(flow: Flow): Definition {
  const draft = flow.draft?.definition as Partial<Definition> | undefined;
  if (draft && typeof draft.start === 'string' && Array.isArray(draft.nodes)) {
    return { start: draft.start, keywords: Array.isArray(draft.keywords) ? draft.keywords : [], nodes: draft.nodes };
  }
  if (neverPublished(flow)) return { start: '', keywords: [], nodes: [] };
  return { start: flow.start, keywords: flow.keywords, nodes: flow.nodes };
}

/** The cards' places by node id, as saved with the draft. */
export function layoutOf(cards: Card[], positions: Map<string, Point>): Layout {
  const layout: Layout = {};
  for (const card of cards) {
    const at = positions.get(card.key);
    if (at) layout[card.node.id] = { x: Math.round(at.x), y: Math.round(at.y) };
  }
  return layout;
}

/** The saved places by card key; null when none of the cards has one (the canvas then lays them out). */
export function placedCards(cards: Card[], layout: Flow['layout']): Map<string, Point> | null {
  if (!layout) return null;
  const placed = new Map(cards.flatMap((c) => (layout[c.node.id] ? [[c.key, layout[c.node.id]!] as const] : [])));
  return placed.size > 0 ? placed : null;
}
