import { edgesOf, NODE_TYPES, type FlowNode } from './flow-nodes';

const BOX_W = 150;
const BOX_H = 46;
const GAP_X = 40;
const GAP_Y = 44;

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

/** A read-only drawing of the flow: nodes as boxes, edges as arrows, the start at the top. */
export function FlowGraph({ nodes, start, invalidIds }: { nodes: FlowNode[]; start: string; invalidIds: Set<string> }) {
  const rows = layout(nodes, start);
  const placed = rows.flat();
  const at = new Map(placed.map((p) => [p.node.id, p]));
  const width = Math.max(...rows.map((r) => r.length), 1) * (BOX_W + GAP_X);
  const height = rows.length * (BOX_H + GAP_Y) + 10;
  const description = placed
    .map(
      (p) =>
        `${p.node.id} (${p.node.type})${edgesOf(p.node)
          .map(([k, t]) => `, ${k} → ${t}`)
          .join('')}`,
    )
    .join('; ');
  return (
    <figure class="flow-graph">
      <svg
        viewBox={`0 0 ${width} ${Math.max(height, 60)}`}
        width={width}
        height={Math.max(height, 60)}
        role="img"
        aria-labelledby="flow-graph-title"
        aria-describedby="flow-graph-desc"
      >
        <title id="flow-graph-title">Flow diagram</title>
        <desc id="flow-graph-desc">{description}</desc>
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
            const back = to.y <= from.y;
            const y2 = back ? to.y + BOX_H : to.y;
            return (
              <line
                key={`${from.node.id}-${kind}`}
                class={kind === 'next' ? 'edge' : 'edge alt'}
                x1={x1}
                y1={y1}
                x2={x2}
                y2={y2}
                marker-end="url(#arrow)"
              />
            );
          }),
        )}
        {placed.map((p) => (
          <g
            key={p.node.id}
            class={invalidIds.has(p.node.id) ? 'box invalid' : p.node.id === start ? 'box start' : 'box'}
            transform={`translate(${p.x},${p.y})`}
          >
            <rect width={BOX_W} height={BOX_H} rx={8} />
            <text x={10} y={19}>
              {truncate(p.node.id || '(no id)', 18)}
            </text>
            <text x={10} y={36} class="type">
              {truncate(NODE_TYPES[p.node.type] ?? p.node.type, 22)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption class="muted">
        Read-only diagram, from the start node down; unreachable nodes in the last row.
      </figcaption>
    </figure>
  );
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
