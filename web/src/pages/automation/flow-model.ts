import { newKey } from './common';
import type { FlowNode, NodeType } from './flow-nodes';

/**
 * The flow builder's view of a definition (docs/decisions/0150). A card is one node of the definition,
 * except that a message with reply buttons or a list is drawn with the nodes that wait for its reply and
 * route the tapped choice (`wait`, `choice`), so each button and row is an exit of its card. Cards are
 * made from the definition and give it back unchanged: the builder never adds meaning of its own.
 */
export interface Card {
  /** The builder's own name for the card, kept while its node's id changes with its title (never saved). */
  key: string;
  node: FlowNode;
  /** The wait_for_reply only this message leads to. */
  wait?: FlowNode;
  /** The branch only that wait leads to, testing only this message's buttons or rows. */
  choice?: FlowNode;
}

/** Where a card's node goes next: an exit of the card, by key (see exitsOf), and its target ('' when open). */
export interface Exit {
  key: string;
  target: string;
  /** The definition needs a target here (a branch's, an answer's): left open, the flow cannot be saved. */
  required: boolean;
}

/** A button of a send_buttons node or a row of a send_list node: what a reply taps. */
export interface Choice {
  id: string;
  title: string;
}

interface Branch {
  when: Record<string, unknown>;
  next: string;
}

/** The message types whose choices are a card's exits once their reply is waited for. */
export const hasChoices = (type: NodeType) => type === 'send_buttons' || type === 'send_list';

/** The buttons or the rows of every section, in order. */
export function choicesOf(node: FlowNode): Choice[] {
  if (node.type === 'send_buttons') return (node.buttons as Choice[] | undefined) ?? [];
  if (node.type !== 'send_list') return [];
  const sections = (node.sections as { rows?: Choice[] }[] | undefined) ?? [];
  return sections.flatMap((section) => section.rows ?? []);
}

// ---- Edges of one node ---------------------------------------------------------------------------

/** A node's edges as [the field that holds it (a JSON Pointer below the node), the node it names]. */
function edgesOf(node: FlowNode): [string, string][] {
  const edges: [string, string][] = [];
  for (const key of ['next', 'on_timeout', 'on_error', 'default']) {
    if (typeof node[key] === 'string' && node[key]) edges.push([key, node[key]]);
  }
  branchesOf(node).forEach((b, i) => b.next && edges.push([`branches/${i}/next`, b.next]));
  return edges;
}

/** A field's text; '' when it holds none. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

const branchesOf = (node: FlowNode | undefined): Branch[] => (node?.branches as Branch[] | undefined) ?? [];

/** The node with every edge to `from` (and `start`, by the caller) pointing at `to` instead. */
function retarget(node: FlowNode, from: string, to: string): FlowNode {
  const out: FlowNode = { ...node };
  for (const key of ['next', 'on_timeout', 'on_error', 'default']) if (out[key] === from) out[key] = to;
  if (Array.isArray(node.branches))
    out.branches = branchesOf(node).map((b) => (b.next === from ? { ...b, next: to } : b));
  return out;
}

// ---- Definition ⇄ cards ----------------------------------------------------------------------------

/** The cards of a definition's nodes, in their order. */
export function cardsOf(nodes: FlowNode[], start: string): Card[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const incoming = new Map<string, number>([[start, 1]]); // the start is entered from outside
  for (const node of nodes)
    for (const [, target] of edgesOf(node)) incoming.set(target, (incoming.get(target) ?? 0) + 1);
  const only = (id: unknown) => (typeof id === 'string' && incoming.get(id) === 1 ? byId.get(id) : undefined);
  const folded = new Set<string>();
  const cards: Card[] = [];
  for (const node of nodes) {
    if (folded.has(node.id)) continue;
    const wait = hasChoices(node.type) ? only(node.next) : undefined;
    if (wait?.type !== 'wait_for_reply' || wait.id === node.id) {
      cards.push({ key: newKey(), node });
      continue;
    }
    const choice = only(wait.next);
    const ids = new Set(choicesOf(node).map((c) => c.id));
    const routesChoices =
      choice?.type === 'branch' &&
      branchesOf(choice).every(
        (b) => Object.keys(b.when).join() === 'button_id' && ids.has(b.when.button_id as string),
      );
    folded.add(wait.id);
    if (routesChoices) folded.add(choice.id);
    cards.push(routesChoices ? { key: newKey(), node, wait, choice } : { key: newKey(), node, wait });
  }
  // A node folded into a card that came before it in the document was pushed as a card of its own too.
  return cards.filter((card) => !folded.has(card.node.id));
}

/** Which card (by key), and which of its parts, each node of `nodesOf`'s answer is. */
export interface NodePart {
  card: string;
  part: 'node' | 'wait' | 'choice';
}

/** The definition's nodes, card by card, and what each one is in the builder. */
export function nodesOf(cards: Card[]): { nodes: FlowNode[]; parts: NodePart[] } {
  const nodes: FlowNode[] = [];
  const parts: NodePart[] = [];
  for (const card of cards) {
    for (const part of ['node', 'wait', 'choice'] as const) {
      const node = card[part];
      if (!node) continue;
      nodes.push(node);
      parts.push({ card: card.key, part });
    }
  }
  return { nodes, parts };
}

/** Which card and part each of these nodes is (a draft's nodes, in the draft's order). */
export function partsOf(nodes: FlowNode[], cards: Card[]): NodePart[] {
  return nodes.map((node) => {
    const card = cards.find((c) => c.node.id === node.id || c.wait?.id === node.id || c.choice?.id === node.id);
    if (!card) return { card: '', part: 'node' };
    return { card: card.key, part: card.node.id === node.id ? 'node' : card.wait?.id === node.id ? 'wait' : 'choice' };
  });
}

// ---- Exits -----------------------------------------------------------------------------------------

/** The edges a node of this type has, besides branches; the first ones must be set. */
const NODE_EXITS: Record<NodeType, { key: string; required?: true }[]> = {
  send_text: [{ key: 'next' }],
  send_template: [{ key: 'next' }],
  send_buttons: [{ key: 'next' }],
  send_list: [{ key: 'next' }],
  send_whatsapp_flow: [{ key: 'next' }, { key: 'on_timeout' }],
  ask: [{ key: 'next', required: true }, { key: 'on_timeout' }],
  wait_for_reply: [{ key: 'next' }, { key: 'on_timeout' }],
  branch: [{ key: 'default', required: true }],
  add_tag: [{ key: 'next' }],
  remove_tag: [{ key: 'next' }],
  set_attribute: [{ key: 'next' }],
  webhook: [{ key: 'next' }, { key: 'on_error' }],
  handoff: [],
  ai_assistant: [],
  end: [],
};

/**
 * A card's exits, in the order its card lists them: a branch's conditions, then its other edges; a message
 * whose reply is waited for: one per button or row (`choice/ID`), `other` reply and `no_reply` in time.
 */
export function exitsOf(card: Card): Exit[] {
  const { node, wait, choice } = card;
  if (wait) {
    const routed = new Map(branchesOf(choice).map((b) => [b.when.button_id as string, b.next]));
    const other = choice ? ((choice.default as string | undefined) ?? '') : ((wait.next as string | undefined) ?? '');
    return [
      ...choicesOf(node).map((c) => ({ key: `choice/${c.id}`, target: routed.get(c.id) ?? '', required: false })),
      { key: 'other', target: other, required: choice !== undefined },
      { key: 'no_reply', target: (wait.on_timeout as string | undefined) ?? '', required: false },
    ];
  }
  const branches = branchesOf(node).map((b, i) => ({ key: `branches/${i}`, target: b.next, required: true }));
  const own = NODE_EXITS[node.type].map(({ key, required }) => ({
    key,
    target: textOf(node[key]),
    required: required ?? false,
  }));
  return [...branches, ...own];
}

/**
 * The card with one exit pointing at `target` ('' leaves it open). Routing a first choice adds the branch
 * that tests the tapped id (its "other reply" goes where the wait went, else back to the message: a reply
 * that taps nothing gets the choices again); routing none removes it. `freshId` names a node added.
 */
export function connect(card: Card, key: string, target: string, freshId: (base: string) => string): Card {
  const { node, wait, choice } = card;
  if (key.startsWith('choice/') && wait) return routeChoice(card, key.slice('choice/'.length), target, freshId);
  if (key === 'other' && wait) {
    if (choice) return { ...card, choice: { ...choice, default: target } };
    return { ...card, wait: withField(wait, 'next', target) };
  }
  if (key === 'no_reply' && wait) return { ...card, wait: withField(wait, 'on_timeout', target) };
  const branch = /^branches\/(\d+)$/.exec(key);
  if (branch) {
    const branches = branchesOf(node).map((b, i) => (i === Number(branch[1]) ? { ...b, next: target } : b));
    return { ...card, node: { ...node, branches } };
  }
  return { ...card, node: withField(node, key, target) };
}

/** An optional edge left out when open; a required one kept as '' (its problem then names it). */
const withField = (node: FlowNode, key: string, target: string): FlowNode => ({ ...node, [key]: target || undefined });

function routeChoice(card: Card, id: string, target: string, freshId: (base: string) => string): Card {
  const { node, choice } = card;
  const wait = card.wait!;
  const kept = branchesOf(choice).filter((b) => b.when.button_id !== id);
  const routed = target ? [...kept, { when: { button_id: id }, next: target }] : kept;
  const order = choicesOf(node).map((c) => c.id);
  routed.sort((a, b) => order.indexOf(a.when.button_id as string) - order.indexOf(b.when.button_id as string));
  if (routed.length === 0) {
    const other = choice?.default as string | undefined;
    return { key: card.key, node, wait: { ...wait, next: other || undefined } };
  }
  if (choice) return { ...card, choice: { ...choice, branches: routed } };
  const added: FlowNode = {
    id: freshId(`${node.id}-choice`),
    type: 'branch',
    branches: routed,
    default: textOf(wait.next) || node.id,
  };
  return { key: card.key, node, wait: { ...wait, next: added.id }, choice: added };
}

/** The cards with a choice's id changed (its title did): the branch that routes it follows. */
export function renameChoice(card: Card, from: string, to: string): Card {
  if (!card.choice || from === to) return card;
  const branches = branchesOf(card.choice).map((b) =>
    b.when.button_id === from ? { ...b, when: { button_id: to } } : b,
  );
  return { ...card, choice: { ...card.choice, branches } };
}

/** The cards once a choice is gone: a branch that routed it goes too (and the whole branch with its last). */
export function dropRoutesOfGoneChoices(card: Card): Card {
  if (!card.choice) return card;
  const ids = new Set(choicesOf(card.node).map((c) => c.id));
  let next = card;
  for (const b of branchesOf(card.choice)) {
    const id = b.when.button_id as string;
    if (!ids.has(id)) next = routeChoice(next, id, '', () => '');
  }
  return next;
}

// ---- Names ------------------------------------------------------------------------------------------

/** Every node id the cards use, the folded ones included. */
export const idsOf = (cards: Card[]): Set<string> => new Set(nodesOf(cards).nodes.map((n) => n.id));

/**
 * An id made from a title: letters (accents dropped) and digits kept, spaces as _, anything else
 * left out; `fallback` when nothing is left (a title in Arabic script), and _2, _3… after one taken.
 */
export function idFromTitle(title: string, taken: Set<string>, fallback: string, max = 64): string {
  const slug = title
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_-]/g, '')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, max - 4);
  const base = slug || fallback;
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

/** A node id in words (idFromTitle's spaces back): the name of a node without a title of its own. */
export const titleOf = (id: string) => id.replaceAll('_', ' ');

/** What a node is called: its `title`, else its id in words. */
export const nameOf = (node: FlowNode): string => textOf(node.title) || titleOf(node.id);

/** The name of the node with this id among the cards (the id in words when no card has it). */
export function nameOfId(cards: Card[], id: string): string {
  const card = cards.find((c) => c.node.id === id);
  return card ? nameOf(card.node) : titleOf(id);
}

/**
 * The node (already under the id made from `title`) with its title: kept in the node only when the id
 * cannot say it (an accent, an apostrophe, another script), so a plain name adds nothing to the JSON.
 */
export function titled(node: FlowNode, title: string): FlowNode {
  const out = { ...node };
  delete out.title;
  const kept = title.trim();
  return kept && titleOf(node.id) !== kept ? { ...out, title: kept } : out;
}

/** The cards with one card's id changed everywhere it is named (its folded nodes' ids follow it). */
export function renameCard(cards: Card[], from: string, to: string): Card[] {
  if (from === to) return cards;
  const renames = new Map<string, string>([[from, to]]);
  const card = cards.find((c) => c.node.id === from);
  for (const part of [card?.wait, card?.choice]) {
    if (part?.id.startsWith(`${from}-`)) renames.set(part.id, to + part.id.slice(from.length));
  }
  const renamed = (node: FlowNode | undefined) => {
    if (!node) return undefined;
    let out: FlowNode = { ...node, id: renames.get(node.id) ?? node.id };
    for (const [old, id] of renames) out = retarget(out, old, id);
    return out;
  };
  return cards.map((c) => ({
    key: c.key,
    node: renamed(c.node)!,
    ...(c.wait && { wait: renamed(c.wait) }),
    ...(c.choice && { choice: renamed(c.choice) }),
  }));
}

/** The cards without one, and with every exit that went to it left open. */
export function removeCard(cards: Card[], id: string): Card[] {
  return cards
    .filter((c) => c.node.id !== id)
    .map((c) =>
      exitsOf(c)
        .filter((exit) => exit.target === id)
        .reduce((card, exit) => connect(card, exit.key, '', () => ''), c),
    );
}

/** The ids of the cards a contact can reach from the start, along every exit. */
export function reachableFrom(start: string, cards: Card[]): Set<string> {
  const byId = new Map(cards.map((c) => [c.node.id, c]));
  const reached = new Set<string>();
  const queue = [start];
  for (const id of queue) {
    const card = byId.get(id);
    if (!card || reached.has(id)) continue;
    reached.add(id);
    for (const exit of exitsOf(card)) if (exit.target) queue.push(exit.target);
  }
  return reached;
}
