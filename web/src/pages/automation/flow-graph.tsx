import type { JSX } from 'preact';
import { t } from '../../i18n/i18n';
import { edgesOf, hasOpenNext, nodeTypeName, type FlowNode } from './flow-nodes';

const BOX_W = 150;
const BOX_H = 46;
const GAP_X = 40;
const GAP_Y = 44;
const PLUS_R = 9;

interface Placed {
  node: FlowNode;
  x: number;
  y: number;
}

/** Rows by breadth-first depth from the start; nodes it does not reach go in a last row. */
function layout(nodes: FlowNode[], start: string): Placed[][] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const depth = new Map<string, number>();
  const first = byId.get(start);
  if (first) depth.set(first.id, 0);
  const queue = first ? [first] : [];
  for (const node of queue) {
    for (const [, target] of edgesOf(node)) {
      const to = byId.get(target);
      if (to && !depth.has(to.id)) {
        depth.set(to.id, depth.get(node.id)! + 1);
        queue.push(to);
      }
    }
  }
  const rows: FlowNode[][] = [];
  const unreached: FlowNode[] = [];
  for (const node of nodes) {
    const d = depth.get(node.id);
    if (d === undefined) unreached.push(node);
    else (rows[d] ??= []).push(node);
  }
  if (unreached.length > 0) rows.push(unreached);
  return rows.map((row, r) =>
    row.map((node, c) => ({ node, x: c * (BOX_W + GAP_X) + GAP_X / 2, y: r * (BOX_H + GAP_Y) + 10 })),
  );
}

/** Enter and Space press an SVG element that acts as a button, as they press a <button>. */
const pressable = (label: string, press: () => void): JSX.SVGAttributes<SVGGElement> => ({
  role: 'button',
  tabindex: 0, // lower case: on an SVG element the attribute name is taken as written
  'aria-label': label,
  onClick: press,
  onKeyDown: (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    press();
  },
});

/** A round "+" that adds a node on an edge. */
function PlusButton(props: { x: number; y: number; label: string; onPress: () => void }) {
  return (
    <g class="add-node" transform={`translate(${props.x},${props.y})`} {...pressable(props.label, props.onPress)}>
      <circle r={PLUS_R} />
      <path d="M-4,0 H4 M0,-4 V4" />
    </g>
  );
}

/**
 * The flow as a diagram people work in: nodes as boxes (click one to edit it), edges as arrows with
 * a "+" to add a node on them, and a "+" under a node whose next step is not set yet.
 */
export function FlowGraph(props: {
  nodes: FlowNode[];
  start: string;
  invalidIds: Set<string>;
  onSelect: (nodeId: string) => void;
  onInsert: (fromId: string, edge: string) => void;
}) {
  const { nodes, start, invalidIds } = props;
  const rows = layout(nodes, start);
  const placed = rows.flat();
  const at = new Map(placed.map((p) => [p.node.id, p]));
  const width = Math.max(...rows.map((r) => r.length), 1) * (BOX_W + GAP_X);
  const height = Math.max(rows.length * (BOX_H + GAP_Y) + 10, 60);
  // A box's words begin at its start edge: the right one when the page reads right to left.
  const textX = document.documentElement.dir === 'rtl' ? BOX_W - 10 : 10;
  return (
    <figure class="flow-graph">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="group"
        aria-label={t('automation:graph.label')}
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto">
            <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
          </marker>
        </defs>
        {placed.flatMap((from) =>
          edgesOf(from.node).map(([kind, target]) => {
            const to = at.get(target);
            if (!to) return null;
            const x1 = from.x + BOX_W / 2;
            const y1 = from.y + BOX_H;
            const x2 = to.x + BOX_W / 2;
            const y2 = to.y <= from.y ? to.y + BOX_H : to.y;
            return (
              <g key={`${from.node.id}-${kind}`}>
                <line
                  class={kind === 'next' ? 'edge' : 'edge alt'}
                  x1={x1}
                  y1={y1}
                  x2={x2}
                  y2={y2}
                  marker-end="url(#arrow)"
                />
                <PlusButton
                  x={(x1 + x2) / 2}
                  y={(y1 + y2) / 2}
                  label={t('automation:graph.addBetween', { from: from.node.id, to: target, edge: kind })}
                  onPress={() => props.onInsert(from.node.id, kind)}
                />
              </g>
            );
          }),
        )}
        {placed.map((p) => {
          const shownId = truncate(p.node.id || t('automation:graph.noId'), 18);
          const shownType = truncate(nodeTypeName(p.node.type), 22);
          return (
            <g key={p.node.id}>
              <g
                class={invalidIds.has(p.node.id) ? 'box invalid' : p.node.id === start ? 'box start' : 'box'}
                transform={`translate(${p.x},${p.y})`}
                {...pressable(t('automation:graph.edit', { id: shownId, type: shownType }), () =>
                  props.onSelect(p.node.id),
                )}
              >
                <rect width={BOX_W} height={BOX_H} rx={8} />
                {/* One text, so the name read out starts with what is shown ("node_3 End"). */}
                <text x={textX} y={19}>
                  {shownId}
                  <tspan x={textX} y={36} class="type">
                    {` ${shownType}`}
                  </tspan>
                </text>
              </g>
              {hasOpenNext(p.node) && (
                <PlusButton
                  x={p.x + BOX_W / 2}
                  y={p.y + BOX_H + GAP_Y / 2}
                  label={t('automation:graph.addAfter', { id: p.node.id })}
                  onPress={() => props.onInsert(p.node.id, NEXT)}
                />
              )}
            </g>
          );
        })}
      </svg>
      <figcaption class="muted">{t('automation:graph.caption')}</figcaption>
    </figure>
  );
}

/** The edge a node goes on by when nothing else applies. */
const NEXT = 'next';

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
