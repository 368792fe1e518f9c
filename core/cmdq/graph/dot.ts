import { clip } from '../../common/clip';
import { escapeControl } from '../../common/escape';
import type { CmdqGraph } from '../graph';
import type { CmdqEntry } from '../model';
import type { GraphAnalysis } from './analysis';
import { CLASS_COLORS, CRITICAL_COLOR, opcodeClass } from './palette';

/** Text inside a DOT quoted string: controls made visible (no line can break), then `\\` and `"` escaped. */
function inner(s: string): string {
  return escapeControl(clip(s, 60)).replace(/[\\"]/g, '\\$&');
}

/**
 * Graphviz DOT of the queue: a node per entry (`n<index>`, label: index, opcode, layer, cost),
 * filled by opcode class, in one rank per dependency level; an edge from each dep to its
 * dependent. The critical path is red and thick; blocked entries (cycles) are dashed.
 */
export function graphDot(entries: readonly CmdqEntry[], g: CmdqGraph, a: GraphAnalysis): string {
  const out: string[] = ['digraph cmdq {', '  rankdir=LR;', '  node [shape=box, style=filled, fontname="monospace"];'];
  for (let i = 0; i < a.n; i++) {
    const e = entries[i];
    const lines = [`${i} ${e.opcode ?? '(no opcode)'}`, typeof e.layerId === 'string' ? e.layerId : '-', `${a.cost[i]} cycles`];
    const attrs = [`label="${lines.map(inner).join('\\n')}"`,
      `fillcolor="${CLASS_COLORS[opcodeClass(e.opcode)]}"`];
    if (a.onCritical[i]) attrs.push(`color="${CRITICAL_COLOR}"`, 'penwidth=3');
    if (a.level[i] < 0) attrs.push('style="filled,dashed"');
    out.push(`  n${i} [${attrs.join(', ')}];`);
  }
  const byLevel: number[][] = a.levelCounts.map(() => []);
  for (let i = 0; i < a.n; i++) if (a.level[i] >= 0) byLevel[a.level[i]].push(i);
  for (const ids of byLevel) if (ids.length > 1) out.push(`  { rank=same; ${ids.map((i) => `n${i};`).join(' ')} }`);
  const pathNext = new Int32Array(a.n).fill(-1);
  for (let k = 0; k + 1 < a.criticalPath.length; k++) pathNext[a.criticalPath[k]] = a.criticalPath[k + 1];
  for (let d = 0; d < a.n; d++) {
    for (const i of g.dependents(d)) {
      const critical = pathNext[d] === i;
      const blocked = a.level[d] < 0 || a.level[i] < 0;
      const attrs = critical ? ` [color="${CRITICAL_COLOR}", penwidth=3]` : blocked ? ' [style=dashed]' : '';
      out.push(`  n${d} -> n${i}${attrs};`);
    }
  }
  out.push('}');
  return out.join('\n') + '\n';
}
