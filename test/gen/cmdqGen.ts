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

/**
 * Generated, issue #31's realistic queue: every entry carries every field the generator design
 * (§4.3) gives its opcode — DMA entries `tensor_role`, `qbits`, `dram_addr`, `spm_bank`,
 * `spm_offset`, `num_elements`; GEMM tiles `te_id`, the three banks, `m`/`n`/`k` and their qbits;
 * VE tiles `ve_id`, `length`, `qbits_activation` — with values of realistic width (DRAM addresses
 * above 2 GiB, 8-bank SPM offsets, mixed 8/16-bit tensors), written as CPython's
 * `json.dump(obj, f, indent=2)` writes it (Lib/json/encoder.py: with an indent the item separator
 * is "," before the newline and the key separator ": "; an empty list is "[]"; no newline at the
 * end), which JSON.stringify(…, null, 2) reproduces byte for byte for ASCII strings and integers.
 * Key order is the builder's: `cmdq` first, then `metadata`; in an entry opcode, id, layer_id,
 * deps_before (§4.4), then the opcode's fields. Layers are five-entry groups as in cmdqText: each
 * load waits for the previous layer's store, so the SPM tiles it reuses are free. Valid.
 */
export function cmdqFull(n: number): string {
  const cmdq: Record<string, unknown>[] = [];
  const ve = ['VE_LAYERNORM_TILE', 'VE_GELU_TILE', 'VE_SOFTMAX_TILE', 'VE_ADD_TILE'];
  for (let i = 0; i < n; i++) {
    const k = i % 5;
    const group = Math.floor(i / 5);
    const layer_id = `blk${Math.floor(group / 64)}_${['qkv', 'attn', 'proj', 'ffn_up', 'ffn_down'][group % 5]}_t${group % 64}`;
    const q = group % 3 === 0 ? 16 : 8;
    const elems = 4096 << (group % 3);
    if (i === n - 1) {
      cmdq.push({ opcode: 'END', id: i, layer_id: null, deps_before: [i - 1] });
    } else if (k === 0 || k === 1) {
      cmdq.push({
        opcode: 'DMA_LOAD_TILE', id: i, layer_id, deps_before: i >= 5 ? [i - 1 - k] : [],
        tensor_role: k ? 'wgt' : 'ifm', qbits: q, dram_addr: 0x8000_0000 + (k ? 0x4000_0000 : 0) + group * 0x1_0000,
        spm_bank: k * 2 + (group % 2), spm_offset: (group % 4) * 0x1_0000, num_elements: elems,
      });
    } else if (k === 2) {
      cmdq.push({
        opcode: 'TE_GEMM_TILE', id: i, layer_id, deps_before: [i - 2, i - 1],
        te_id: group % 2, ifm_bank: group % 2, wgt_bank: 2 + (group % 2), ofm_bank: 4 + (group % 2), m: 64, n: 64, k: elems / 64, qbits_ifm: q, qbits_wgt: q,
      });
    } else if (k === 3) {
      cmdq.push({ opcode: ve[group % 4], id: i, layer_id, deps_before: [i - 1], ve_id: group % 2, length: 4096, qbits_activation: q });
    } else {
      cmdq.push({
        opcode: 'DMA_STORE_TILE', id: i, layer_id, deps_before: [i - 1],
        tensor_role: 'ofm', qbits: q, dram_addr: 0x1_0000_0000 + group * 0x1_0000, spm_bank: 4 + (group % 2), spm_offset: 0, num_elements: 4096,
      });
    }
  }
  return JSON.stringify({ cmdq, metadata: { graph_name: 'llama_block_x32', version: '1.3', generated_by: 'CmdqGenerator (bench/test/gen/cmdqGen.ts cmdqFull, generated)' } }, null, 2);
}
