import { clip } from '../../common/clip';
import { escapeControl } from '../../common/escape';
import type { CmdqGraph } from '../graph';
import type { CmdqEntry } from '../model';
import type { GraphAnalysis } from './analysis';
import { CLASS_COLORS, CRITICAL_COLOR, opcodeClass } from './palette';

/**
 * What `--dot` draws at most. Graphviz lays out a few thousand nodes in reasonable time; a 58 MB
 * queue holds 11.7M edges (210 MB of DOT built in 3 GB before these limits). `--json` has the
 * whole analysis.
 */
export const MAX_DOT_NODES = 20_000;
export const MAX_DOT_EDGES = 100_000;

/** What a DOT output holds of the queue. */
export interface DotSummary {
  nodes: number;
  nodesDrawn: number;
  edges: number;
  edgesDrawn: number;
}

/** Text inside a DOT quoted string: controls made visible (no line can break), then `\\` and `"` escaped. */
function inner(s: string): string {
  return escapeControl(clip(s, 60)).replace(/[\\"]/g, '\\$&');
}

/**
 * Graphviz DOT of the queue, handed out line by line to `emit` (nothing is joined): a node per
 * entry (`n<index>`, label: index, opcode, layer, cost), filled by opcode class, in one rank per
 * dependency level; an edge from each dep to its dependent. The critical path is red and thick;
 * blocked entries (cycles) are dashed. Bounded: the first MAX_DOT_NODES entries and, between them,
 * the critical path's edges and the first MAX_DOT_EDGES others (by dep, then dependent); what is
 * left out is said in the graph's label (drawn above it) and returned.
 */
export function graphDot(entries: readonly CmdqEntry[], g: CmdqGraph, a: GraphAnalysis, emit: (line: string) => void): DotSummary {
  const shown = Math.min(a.n, MAX_DOT_NODES);
  let edges = 0;
  for (let d = 0; d < a.n; d++) edges += g.dependentCount(d);
  const pathNext = new Int32Array(a.n).fill(-1);
  for (let k = 0; k + 1 < a.criticalPath.length; k++) pathNext[a.criticalPath[k]] = a.criticalPath[k + 1];
  // Critical edges between drawn nodes are drawn whatever the limit; the others fill what is left.
  let critical = 0;
  for (let d = 0; d < shown; d++) if (pathNext[d] >= 0 && pathNext[d] < shown) critical++;
  let room = Math.max(0, MAX_DOT_EDGES - critical);
  let edgesDrawn = critical;
  for (let d = 0; d < shown && room > 0; d++) {
    for (const i of g.dependents(d)) {
      if (i < shown && pathNext[d] !== i && room > 0) {
        room--;
        edgesDrawn++;
      }
    }
  }

  emit('digraph cmdq {\n');
  emit('  rankdir=LR;\n');
  if (shown < a.n || edgesDrawn < edges) {
    emit(`  label="${shown} of ${a.n} entries and ${edgesDrawn} of ${edges} dependencies drawn (limits ${MAX_DOT_NODES} and ${MAX_DOT_EDGES}; npu-trace cmdq-graph --json has them all)";\n`);
    emit('  labelloc=t;\n');
  }
  emit('  node [shape=box, style=filled, fontname="monospace"];\n');
  for (let i = 0; i < shown; i++) {
    const e = entries[i];
    const lines = [`${i} ${e.opcode ?? '(no opcode)'}`, typeof e.layerId === 'string' ? e.layerId : '-', `${a.cost[i]} cycles`];
    const attrs = [`label="${lines.map(inner).join('\\n')}"`,
      `fillcolor="${CLASS_COLORS[opcodeClass(e.opcode)]}"`];
    if (a.onCritical[i]) attrs.push(`color="${CRITICAL_COLOR}"`, 'penwidth=3');
    if (a.level[i] < 0) attrs.push('style="filled,dashed"');
    emit(`  n${i} [${attrs.join(', ')}];\n`);
  }
  const byLevel: number[][] = a.levelCounts.map(() => []);
  for (let i = 0; i < shown; i++) if (a.level[i] >= 0) byLevel[a.level[i]].push(i);
  for (const ids of byLevel) if (ids.length > 1) emit(`  { rank=same; ${ids.map((i) => `n${i};`).join(' ')} }\n`);
  let others = edgesDrawn - critical;
  for (let d = 0; d < shown; d++) {
    for (const i of g.dependents(d)) {
      if (i >= shown) continue;
      const isCritical = pathNext[d] === i;
      if (!isCritical) {
        if (others === 0) continue;
        others--;
      }
      const blocked = a.level[d] < 0 || a.level[i] < 0;
      const attrs = isCritical ? ` [color="${CRITICAL_COLOR}", penwidth=3]` : blocked ? ' [style=dashed]' : '';
      emit(`  n${d} -> n${i}${attrs};\n`);
    }
  }
  emit('}\n');
  return { nodes: a.n, nodesDrawn: shown, edges, edgesDrawn };
}
