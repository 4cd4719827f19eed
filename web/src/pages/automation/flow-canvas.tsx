import {
  Background,
  Controls,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
  type NodeProps,
} from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n/i18n';
import { exitName } from './flow-exits';
import { autoLayout, CARD_WIDTH, placeNew, type Point } from './flow-layout';
import { exitsOf, nameOf, nameOfId, type Card } from './flow-model';
import { nodeTypeName } from './flow-nodes';
import type { CardProblem } from './flow-problems';
import type { CanvasCounts } from './flow-stats';

type CardData = {
  card: Card;
  isStart: boolean;
  keywords: string[];
  problems: CardProblem[];
  unreachable: boolean;
  /** How many runs are at this card or ended there (the live version's), if any. */
  runs: number;
  /** The try-run passed this card. */
  lit: boolean;
  /** The ids of the flow's nodes: an exit to any other id goes nowhere. */
  ids: Set<string>;
  rtl: boolean;
};
type CardNodeType = Node<CardData, 'card'>;

const NODE_TYPES = { card: CardView };
/** The keys that delete the selected card or connection. */
const DELETE_KEYS = ['Delete', 'Backspace'];

/** What the canvas tells the builder, by card key (see Card) and exit key (see exitsOf). */
interface CanvasEvents {
  onSelect: (key: string | null) => void;
  onConnect: (key: string, exit: string, targetKey: string) => void;
  onRemove: (keys: string[]) => void;
  /** Where the cards are now (by card key), after a drag, a tidy-up or a card placed. */
  onPlaced: (positions: Map<string, Point>) => void;
}

/**
 * The flow on a canvas (@xyflow/react, docs/decisions/0150): a card per node with a handle per exit, dragged
 * to the next card to connect it; pan, zoom and fit; cards placed by dagre's layout ("Tidy up") or where
 * they are dragged. The start, unreachable cards, open exits and problems are marked on the cards.
 */
export function FlowCanvas(
  props: CanvasEvents & {
    cards: Card[];
    start: string;
    keywords: string[];
    selected: string | null;
    problems: Map<string, CardProblem[]>;
    reachable: Set<string>;
    /** Where the person put the cards (by card key); null: laid out automatically. */
    placed: Map<string, Point> | null;
    /** The live version's runs per edge and card. */
    counts: CanvasCounts;
    /** The path of the try-run, lit. */
    lit: CanvasCounts;
  },
) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

function Canvas(props: Parameters<typeof FlowCanvas>[0]) {
  const { cards, start, selected } = props;
  const rtl = document.documentElement.dir === 'rtl';
  const flow = useReactFlow();
  const [positions, setPositions] = useState(() => props.placed ?? autoLayout(cards, start, rtl));
  const [tidied, setTidied] = useState(0);
  // React Flow measures each card once drawn; the measure has to come back with the card, or it is drawn hidden.
  // A card not measured yet carries an empty one: handed a card with none, React Flow drops its handles, and a
  // render built before the first measure may arrive after it, leaving the card without edges until it resizes.
  const measured = useRef(new Map<string, { width: number; height: number }>());
  const [, remeasured] = useState(0);
  const [selectedEdges, setSelectedEdges] = useState<Set<string>>(new Set());

  useEffect(() => {
    const unplaced = cards.filter((c) => !positions.has(c.key));
    if (unplaced.length === 0) return;
    const next = new Map(positions);
    for (const card of unplaced) next.set(card.key, placeNew(next, selected));
    setPositions(next);
    // A card just added is brought into view, where the person will look for it.
    const added = next.get(unplaced.at(-1)!.key)!;
    void flow.setCenter(added.x + CARD_WIDTH / 2, added.y + 60, { zoom: flow.getZoom(), duration: 200 });
  }, [cards, positions, selected, flow]);
  useEffect(() => {
    if (tidied > 0) void flow.fitView({ duration: 200, maxZoom: 1 });
  }, [tidied, flow]);
  const { onPlaced } = props;
  useEffect(() => onPlaced(positions), [positions, onPlaced]);

  const keyOf = useMemo(() => new Map(cards.map((c) => [c.node.id, c.key])), [cards]);
  const ids = useMemo(() => new Set(keyOf.keys()), [keyOf]);
  const nodes: CardNodeType[] = cards.map((card) => ({
    id: card.key,
    type: 'card',
    position: positions.get(card.key) ?? { x: 0, y: 0 },
    selected: card.key === selected,
    measured: measured.current.get(card.key) ?? {},
    ariaLabel: cardLabel(card, card.node.id === start, props.problems.get(card.key) ?? [], props.counts, props.lit),
    data: {
      card,
      isStart: card.node.id === start,
      keywords: props.keywords,
      problems: props.problems.get(card.key) ?? [],
      unreachable: !props.reachable.has(card.node.id),
      runs: props.counts.cards.get(card.key) ?? 0,
      lit: props.lit.cards.has(card.key),
      ids,
      rtl,
    },
  }));
  const edges: Edge[] = cards.flatMap((card) =>
    exitsOf(card).flatMap((exit) => {
      const target = keyOf.get(exit.target);
      if (!target) return [];
      const id = `${card.key}|${exit.key}`;
      const runs = props.counts.edges.get(id);
      const words = t('automation:builder.edge', {
        from: nameOf(card.node),
        exit: exitName(card, exit.key),
        to: nameOfId(cards, exit.target),
      });
      return [
        {
          id,
          source: card.key,
          sourceHandle: exit.key,
          target,
          selected: selectedEdges.has(id),
          markerEnd: { type: MarkerType.ArrowClosed },
          ...(props.lit.edges.has(id) && { className: 'lit', animated: true }),
          ...(runs && { label: t('automation:builder.runs', { count: runs }) }),
          ariaLabel: [
            words,
            ...(runs ? [t('automation:builder.runs', { count: runs })] : []),
            ...(props.lit.edges.has(id) ? [t('automation:builder.tried')] : []),
          ].join(', '),
        },
      ];
    }),
  );

  const onNodesChange = (changes: NodeChange<CardNodeType>[]) => {
    for (const change of changes) {
      if (change.type === 'position' && change.position) {
        const at: Point = change.position;
        setPositions((p) => new Map(p).set(change.id, at));
      } else if (change.type === 'dimensions' && change.dimensions) {
        measured.current.set(change.id, change.dimensions);
        remeasured((n) => n + 1);
      }
    }
    // Selecting a card unselects the one before it in the same batch: the new one wins.
    const selects = changes.filter((c) => c.type === 'select');
    const chosen = selects.find((c) => c.selected);
    if (chosen) props.onSelect(chosen.id);
    else if (selects.some((c) => c.id === selected)) props.onSelect(null);
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    for (const change of changes) {
      if (change.type !== 'select') continue;
      setSelectedEdges((s) => {
        const next = new Set(s);
        if (change.selected) next.add(change.id);
        else next.delete(change.id);
        return next;
      });
    }
  };
  const disconnect = (removed: Edge[]) => {
    for (const edge of removed) props.onConnect(edge.source, edge.sourceHandle ?? '', '');
  };

  // The canvas places cards by their left edge whatever the language; a card's own words keep its direction.
  return (
    <div class="flow-canvas" dir="ltr">
      <ReactFlow<CardNodeType>
        aria-label={t('automation:builder.canvas')}
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={(c) => c.sourceHandle && props.onConnect(c.source, c.sourceHandle, c.target)}
        onNodesDelete={(removed) => props.onRemove(removed.map((n) => n.id))}
        onEdgesDelete={disconnect}
        deleteKeyCode={DELETE_KEYS}
        minZoom={0.2}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        ariaLabelConfig={ariaLabels()}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
      <button
        type="button"
        class="tidy"
        onClick={() => {
          setPositions(autoLayout(cards, start, rtl));
          setTidied((n) => n + 1);
        }}
      >
        {t('automation:builder.tidy')}
      </button>
    </div>
  );
}

/** What a screen reader says of a card as focus reaches it: name, type, start, problems, runs there, the try's path. */
function cardLabel(card: Card, isStart: boolean, problems: CardProblem[], counts: CanvasCounts, lit: CanvasCounts) {
  const parts = [nameOf(card.node), nodeTypeName(card.node.type)];
  if (isStart) parts.push(t('automation:builder.start'));
  if (problems.length > 0) parts.push(t('automation:builder.problemCount', { count: problems.length }));
  const runs = counts.cards.get(card.key);
  if (runs) parts.push(t('automation:builder.runsHere', { count: runs }));
  if (lit.cards.has(card.key)) parts.push(t('automation:builder.tried'));
  return parts.join(', ');
}

/** React Flow's own words (its controls, what a focused card or edge lets one do), in the person's language. */
const ariaLabels = () => ({
  'node.a11yDescription.default': t('automation:builder.a11y.node'),
  'node.a11yDescription.keyboardDisabled': t('automation:builder.a11y.node'),
  'node.a11yDescription.ariaLiveMessage': ({ direction }: { direction: string }) =>
    t('automation:builder.a11y.moved', { direction }),
  'edge.a11yDescription.default': t('automation:builder.a11y.edge'),
  'controls.ariaLabel': t('automation:builder.a11y.controls'),
  'controls.zoomIn.ariaLabel': t('automation:builder.a11y.zoomIn'),
  'controls.zoomOut.ariaLabel': t('automation:builder.a11y.zoomOut'),
  'controls.fitView.ariaLabel': t('automation:builder.a11y.fitView'),
  'controls.interactive.ariaLabel': t('automation:builder.a11y.interactive'),
  'minimap.ariaLabel': t('automation:builder.a11y.minimap'),
  'handle.ariaLabel': t('automation:builder.a11y.handle'),
});

/** One card: its type, name and gist, its problems, and a row per exit with the handle to drag from. */
function CardView({ data, selected }: NodeProps<CardNodeType>) {
  const { card, problems, rtl } = data;
  const classes = ['flow-card'];
  if (data.isStart) classes.push('start');
  if (problems.length > 0) classes.push('invalid');
  if (data.unreachable) classes.push('unreachable');
  if (selected) classes.push('selected');
  if (data.lit) classes.push('lit');
  return (
    <div class={classes.join(' ')} data-node={card.node.id} dir={rtl ? 'rtl' : undefined}>
      <Handle type="target" position={rtl ? Position.Right : Position.Left} isConnectableStart={false} />
      <p class="card-type">
        {nodeTypeName(card.node.type)}
        {data.isStart && <span class="node-badge">{t('automation:builder.start')}</span>}
      </p>
      <p class="card-title">{nameOf(card.node)}</p>
      {data.runs > 0 && <p class="card-runs">{t('automation:builder.runsHere', { count: data.runs })}</p>}
      {data.isStart && data.keywords.length > 0 && (
        <p class="card-gist">{t('automation:builder.startsOn', { keywords: data.keywords.join(', ') })}</p>
      )}
      <CardGist card={card} />
      {problems.length > 0 && (
        <p class="card-problem">
          {problems[0]!.message}
          {problems.length > 1 && ` ${t('automation:builder.moreProblems', { count: problems.length - 1 })}`}
        </p>
      )}
      {data.unreachable && !data.isStart && <p class="card-note">{t('automation:builder.unreachable')}</p>}
      <ul class="card-exits">
        {exitsOf(card).map((exit) => (
          <li key={exit.key} class={exit.target ? 'exit' : 'exit open'}>
            <span class="exit-name">{exitName(card, exit.key)}</span>
            {(!exit.target || !data.ids.has(exit.target)) && (
              <span class={exit.required || exit.target ? 'exit-state needed' : 'exit-state'}>
                {exitState(exit.target, exit.required)}
              </span>
            )}
            <Handle type="source" id={exit.key} position={rtl ? Position.Left : Position.Right} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** An exit that goes to no node: open (the flow ends there, or a next node is needed) or to a gone node. */
function exitState(target: string, required: boolean): string {
  if (target) return t('automation:builder.missingNode');
  return required ? t('automation:builder.needsNext') : t('automation:builder.ends');
}

/** A line of what the node does: its message, tag, attribute or address. */
function CardGist({ card }: { card: Card }) {
  const { node } = card;
  const gist = [node.text, node.tag, node.attribute, node.url, node.note].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return gist ? <p class="card-gist">{gist}</p> : null;
}
