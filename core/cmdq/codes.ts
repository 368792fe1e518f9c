// The diagnostic codes of command queues, each with an example and its message. The manual's table
// (docs/formats/cmdq.md) and the SARIF rules of `npu-trace check` are made from this list (npm run gen:docs).
import type { CodeDoc } from '../common/codeDoc';

export const CMDQ_CODES: readonly CodeDoc[] = [
  { code: "cmdq.invalid-json", severity: "error", example: "`\"deps_before\": [0 1]` → *Invalid JSON: Expected ',' or ']' but found '1'* (parsing resumes at the next entry)" },
  { code: "cmdq.unknown-opcode", severity: "error", example: "`\"opcode\": \"VE_LAYERNORM\"` → *Unknown opcode \"VE_LAYERNORM\"; did you mean \"VE_LAYERNORM_TILE\"?*" },
  { code: "cmdq.missing-field", severity: "error", example: "a `DMA_LOAD_TILE` without `spm_offset` → *DMA_LOAD_TILE is missing required field \"spm_offset\" (an integer)* (on the opcode)" },
  { code: "cmdq.wrong-type", severity: "error", example: "`\"m\": \"64\"` → *\"m\" must be an integer, got the string \"64\"*" },
  { code: "cmdq.invalid-value", severity: "error", example: "`\"qbits\": 3` → *\"qbits\" must be one of 1, 2, 4, 8, 16, 32; got number 3*; `\"id\": 1e300` → *id 1e300 is beyond 2^53 − 1 = 9007199254740991, the largest integer JSON readers keep exactly: it cannot be the entry's index 0, and no deps_before can name it*; `\"deps_before\": [9007199254740993]` → *deps_before names 9007199254740993, which is beyond 2^53 − 1 = …: no entry can have that id*" },
  { code: "cmdq.id-mismatch", severity: "error", example: "`\"id\": 9` at index 5 → *id 9 does not match the entry's index 5 in cmdq (CmdqGenerator assigns id = index)*" },
  { code: "cmdq.duplicate-id", severity: "error", example: "a second entry with `\"id\": 4` → *id 4 is already used by the entry at index 4; deps_before naming 4 resolve to that one*" },
  { code: "cmdq.unknown-dep", severity: "error", example: "`\"deps_before\": [3, 42]` in a 6-entry queue → *deps_before names 42, but no entry has id 42 (the queue has 6 entries)*" },
  { code: "cmdq.self-dep", severity: "error", example: "entry 3 with `\"deps_before\": [2, 3]` → *Entry 3 depends on itself: it would wait forever*" },
  { code: "cmdq.forward-dep", severity: "error", example: "entry 0 with `\"deps_before\": [1]` → *Entry 0 (index 0) depends on entry 1 (DMA_LOAD_TILE) at index 1, later in the queue: an in-order queue would deadlock*" },
  { code: "cmdq.dep-cycle", severity: "error", example: "entry 2 with `\"deps_before\": [0, 1, 4]` → *Dependency cycle: 2 → 4 → 3 → 2; none of these can ever start* (on each member's dep, the others as related information)" },
  { code: "cmdq.deps-not-listed", severity: "information", example: "an entry whose `deps_before` has 150 unknown ids → *50 more problems in deps_before not listed (the first 100 of this entry are)* (on the `deps_before` value; the unlisted errors still fail `npu-trace check`)" },
  { code: "cmdq.duplicate-dep", severity: "warning", example: "`\"deps_before\": [0, 1, 1]` → *1 is listed twice in deps_before*" },
  { code: "cmdq.missing-end", severity: "error", example: "no `END` entry → *The queue has no END entry; add { \"opcode\": \"END\", \"deps_before\": [4] } as its last entry* (on the `cmdq` key; the suggestion is JSON: ids only, the first 20, and *; 2 leaves have no id of their own to wait for* when some have none)" },
  { code: "cmdq.end-not-last", severity: "error", example: "an entry after `END` → *END must be the last entry of the queue; this one is at index 5 of 7*" },
  { code: "cmdq.end-deps", severity: "error", example: "`END` with `\"deps_before\": [3]` while nothing waits for 4 → *END does not wait for entry 4, which nothing else waits for: the queue could end before it finishes*" },
  { code: "cmdq.spm-overlap", severity: "warning", example: "two loads into bank 0 bytes [0, 4096) read by the same GEMM → *SPM bank 0 bytes [0, 4096) overlap bytes [0, 4096) loaded by entry 0, and entry 0's tile is still being read by 2, and this load does not wait for it: the load can overwrite a live tile*" },
];
