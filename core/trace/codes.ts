// The diagnostic codes of NPU traces, each with an example and its message. The manual's table
// (docs/formats/npu-trace.md) and the SARIF rules of `npu-trace check` are made from this list (npm run gen:docs).
import type { CodeDoc } from '../common/codeDoc';

export const TRACE_CODES: readonly CodeDoc[] = [
  { code: "trace.invalid-json", severity: "error", example: "`{\"event_type\": \"CMD_START\", \"t_cycle\": NaN}` → *Invalid JSON: NaN is not valid JSON: write null or a string instead* (on the token where parsing failed)" },
  { code: "trace.not-object", severity: "error", example: "`[1, 2]` → *Each line must be one JSON object (an event); this line is an array*" },
  { code: "trace.unknown-event-type", severity: "error", example: "`{\"event_type\": \"DMA_STRT\", ...}` → *Unknown event_type \"DMA_STRT\"; did you mean \"DMA_START\"?*" },
  { code: "trace.missing-field", severity: "error", example: "`{\"event_type\": \"CMD_ENQUEUE\", \"t_cycle\": 5, \"cmd_id\": 1}` → *CMD_ENQUEUE is missing required field \"cmd_type\" (a string)* (on the `event_type` value)" },
  { code: "trace.wrong-type", severity: "error", example: "`{\"event_type\": \"CMD_START\", \"t_cycle\": 5, \"cmd_id\": \"42\"}` → *\"cmd_id\" must be an integer, got the string \"42\"*" },
  { code: "trace.invalid-value", severity: "error", example: "`{\"event_type\": \"CMD_END\", \"t_cycle\": 9, \"cmd_id\": 1, \"status\": \"FAIL\"}` → *\"status\" must be one of OK, ERROR, TIMEOUT, ABORTED; got the string \"FAIL\"*" },
  { code: "trace.unmatched-start", severity: "error", example: "a `DMA_START` with `\"tx_id\": 7` and no `DMA_END` for it → *DMA_START for tx_id 7 has no DMA_END after it*" },
  { code: "trace.unmatched-end", severity: "error", example: "a `CMD_END` for `cmd_id` 43 with no open `CMD_START` → *CMD_END for cmd_id 43 has no open CMD_START before it*" },
  { code: "trace.end-before-start", severity: "error", example: "`DMA_END` at cycle 200 for a `DMA_START` at 210 → *DMA_END at cycle 200 is before its DMA_START at cycle 210 (line 5)*" },
  { code: "trace.latency-mismatch", severity: "warning", example: "`JOB_DONE` with `\"latency_cycles\": 61` 60 cycles after its issue → *latency_cycles is 61 but JOB_DONE − JOB_ISSUE is 260 − 200 = 60 cycles*" },
  { code: "trace.time-backwards", severity: "warning", example: "a line with `\"t_cycle\": 210` after one at 260 → *t_cycle 210 is lower than 260 on line 5: events should be in time order*" },
  { code: "trace.unknown-cmd", severity: "error", example: "`{\"event_type\": \"JOB_ISSUE\", ..., \"cmd_id\": 99}` with no `CMD_ENQUEUE` of 99 → *cmd_id 99 is never enqueued: no CMD_ENQUEUE in this trace has it*" },
  { code: "trace.duplicate-id", severity: "error", example: "a second `CMD_ENQUEUE` of `cmd_id` 42 → *cmd_id 42 is enqueued again; it was first enqueued on line 2*" },
  { code: "trace.meta-not-first", severity: "error", example: "`TRACE_META` on line 12 → *TRACE_META must be the first line of the trace (the header); here it is line 12, ...*" },
  { code: "trace.reported-error", severity: "error", example: "`{\"event_type\": \"ERROR\", \"component\": \"DMA\", \"code\": \"ADDR_ALIGN\", \"msg\": \"unaligned DMA source address\", ...}` → *Simulator error [DMA ADDR_ALIGN]: unaligned DMA source address*" },
  { code: "trace.reported-warning", severity: "warning", example: "`{\"event_type\": \"WARN\", \"component\": \"TE\", \"code\": \"LOW_UTIL\", \"msg\": \"TE utilization below 50%\", ...}` → *Simulator warning [TE LOW_UTIL]: TE utilization below 50%*" },
  { code: "trace.line-too-long", severity: "error", example: "a line of 20 MB (over `npuTrace.diagnostics.maxLineBytes`, 8 MB by default) → *Line 1001 is 20971520 characters long, over the limit of 8388608 characters (setting npuTrace.diagnostics.maxLineBytes, npu-trace check --max-line-bytes): it is not checked* (at the line's start; the CLI counts bytes: *Line 1 is 200 MB long, over the limit of 8 MB …*)" },
  { code: "trace.too-deep", severity: "error", example: "a line of 10 001 `[` → *Line 1 nests arrays and objects more than 10000 levels deep: it is not checked*" },
];
