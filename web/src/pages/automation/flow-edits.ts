import { newCard } from './flow-defaults';
import { connect, idFromTitle, idsOf, removeCard, renameCard, titled, type Card } from './flow-model';
import type { NodeType } from './flow-nodes';
import type { BuilderProblems, CardProblem } from './flow-problems';

/** The key of the card whose node has this id ('' when none). */
export const keyOf = (cards: Card[], id: string) => cards.find((c) => c.node.id === id)?.key ?? '';

/** The builder's edits of its cards, by card key; each one drops the problems of what it changed. */
export function useBuilderEdits(state: {
  cards: Card[];
  setCards: (cards: Card[]) => void;
  start: string;
  setStart: (id: string) => void;
  setProblems: (update: (p: BuilderProblems) => BuilderProblems) => void;
  setSelected: (key: string | null) => void;
}) {
  const { cards, setCards, start, setStart } = state;
  const settle = (key: string, fields: string[]) =>
    state.setProblems((p) => ({ ...p, cards: withoutFields(p.cards, key, fields) }));
  const freshId = (base: string) => idFromTitle(base, idsOf(cards), base);
  return {
    add: (type: NodeType): string => {
      const card = newCard(type, cards);
      setCards([...cards, card]);
      return card.key;
    },
    change: (card: Card, fields: string[]) => {
      setCards(cards.map((c) => (c.key === card.key ? card : c)));
      settle(card.key, fields);
    },
    connect: (key: string, exit: string, targetKey: string) => {
      const target = cards.find((c) => c.key === targetKey)?.node.id ?? '';
      setCards(cards.map((c) => (c.key === key ? connect(c, exit, target, freshId) : c)));
      settle(key, [`exit:${exit}`]);
    },
    rename: (key: string, title: string) => {
      const card = cards.find((c) => c.key === key)!;
      const taken = idsOf(cards.filter((c) => c !== card));
      const id = idFromTitle(title, taken, card.node.type);
      const renamed = renameCard(cards, card.node.id, id);
      setCards(renamed.map((c) => (c.key === key ? { ...c, node: titled(c.node, title) } : c)));
      if (start === card.node.id) setStart(id);
    },
    remove: (keys: string[]) => {
      const gone = cards.filter((c) => keys.includes(c.key));
      const left = gone.reduce((rest, c) => removeCard(rest, c.node.id), cards);
      setCards(left);
      if (gone.some((c) => c.node.id === start) && left[0]) setStart(left[0].node.id);
      state.setSelected(null);
    },
  };
}

function withoutFields(all: Map<string, CardProblem[]>, key: string, fields: string[]) {
  const list = all.get(key);
  if (!list) return all;
  const kept = list.filter((p) => !fields.some((f) => p.field === f || p.field.startsWith(`${f}/`)));
  return new Map(all).set(key, kept);
}
