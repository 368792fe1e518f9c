/**
 * A 100k-entry CMDQ as CmdqGenerator writes it (§4.4 style: one entry per line, pretty-printed
 * around): repeating layers of two loads, a GEMM, a LayerNorm and a store, each load waiting for
 * the previous layer's store so SPM tiles are reused safely. Valid: the bench expects 0 problems.
 */
export function cmdqText(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 5;
    const layer = `"layer_${Math.floor(i / 5)}"`;
    let e: string;
    if (i === n - 1) e = `{ "opcode": "END", "id": ${i}, "layer_id": null, "deps_before": [${i - 1}] }`;
    else if (k === 0 || k === 1) {
      // A layer's loads wait for the previous layer's store, which frees the SPM tiles they reuse.
      e = `{ "opcode": "DMA_LOAD_TILE", "id": ${i}, "layer_id": ${layer}, "deps_before": [${i >= 5 ? i - 1 - k : ''}], "tensor_role": "${k ? 'wgt' : 'ifm'}", "qbits": 8, "dram_addr": ${4096 * i}, "spm_bank": ${k}, "spm_offset": ${(i % 40) * 256}, "num_elements": 256 }`;
    } else if (k === 2) {
      e = `{ "opcode": "TE_GEMM_TILE", "id": ${i}, "layer_id": ${layer}, "deps_before": [${i - 2}, ${i - 1}], "te_id": 0, "ifm_bank": 0, "wgt_bank": 1, "ofm_bank": 2, "m": 16, "n": 16, "k": 16, "qbits_ifm": 8, "qbits_wgt": 8 }`;
    } else if (k === 3) {
      e = `{ "opcode": "VE_LAYERNORM_TILE", "id": ${i}, "layer_id": ${layer}, "deps_before": [${i - 1}], "ve_id": 0, "length": 256, "qbits_activation": 8 }`;
    } else {
      e = `{ "opcode": "DMA_STORE_TILE", "id": ${i}, "layer_id": ${layer}, "deps_before": [${i - 1}], "tensor_role": "ofm", "qbits": 8, "dram_addr": ${4096 * i}, "spm_bank": 2, "spm_offset": 0, "num_elements": 256 }`;
    }
    lines.push('    ' + e);
  }
  return `{\n  "metadata": { "graph_name": "bench", "version": "1.0", "generated_by": "bench/cmdqGen.ts" },\n  "cmdq": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

/**
 * The same queue as the Python CmdqGenerator writes it: `json.dump(obj, f, indent=2)`, one key and
 * one list element per line (JSON.stringify with 2 spaces produces the same bytes for this data).
 */
export function cmdqIndent2(n: number): string {
  return JSON.stringify(JSON.parse(cmdqText(n)), null, 2);
}

/**
 * The queue with a mistake in one entry of every hundred, cycling through kinds users make: a bad
 * qbits, a dependency on a missing id, a string where a number goes, a wrong id.
 */
export function cmdqWithErrors(n: number): string {
  const q = JSON.parse(cmdqText(n)) as { cmdq: Record<string, unknown>[] };
  q.cmdq.forEach((e, i) => {
    if (i % 100 !== 50) return;
    const kind = Math.floor(i / 100) % 4;
    if (kind === 0) e.qbits = 3;
    else if (kind === 1) e.deps_before = [...(e.deps_before as number[]), n + 7];
    else if (kind === 2) e.layer_id = 42;
    else e.id = i + 1;
  });
  return JSON.stringify(q, null, 2);
}
