// The diagnostic codes of Chrome Trace JSON, each with an example and its message. The manual's table
// (docs/formats/chrome-trace.md) and the SARIF rules of `npu-trace check` are made from this list (npm run gen:docs).
import type { CodeDoc } from '../common/codeDoc';

export const CHROME_CODES: readonly CodeDoc[] = [
  { code: "chrome.unknown-ph", severity: "error", example: "`{\"ph\": \"Q\", …}` → *Unknown \"ph\" \"Q\": the Trace Event Format has B, E, X, i, I, C, b, n, e, s, t, f, M, and the object and sample events* (on the value; also an event with no `ph`)" },
  { code: "chrome.missing-dur", severity: "error", example: "`{\"ph\": \"X\", \"name\": \"nodur\", \"ts\": 2}` → *X event \"nodur\" has no \"dur\": a complete event needs its duration* (`tdur` alone is accepted)" },
  { code: "chrome.negative-dur", severity: "error", example: "`\"dur\": -4` → *\"dur\" is negative (-4): X event \"neg\" would end before it starts*" },
  { code: "chrome.unmatched-end", severity: "error", example: "an `E` on pid 1 tid 2 with no `B` open there → *E \"lonely\" has no open B on pid \"1\" tid \"2\"*" },
  { code: "chrome.unclosed-begin", severity: "warning", example: "a `B` never closed → *B \"outer\" on pid \"1\" tid \"1\" is never closed by an E: it runs to the end of the trace*" },
  { code: "chrome.misnested", severity: "error", example: "`B outer`, `B inner`, `E \"name\": \"outer\"` → *E \"outer\" ends an outer B while \"inner\" (opened inside it) is still open: B/E pairs must nest; Chrome closes \"inner\" here*" },
  { code: "chrome.ts-not-number", severity: "error", example: "`\"ts\": \"soon\"` → *\"ts\" must be a number (µs), got \"soon\"* (also an event other than `M` with no `ts`)" },
  { code: "chrome.number-out-of-range", severity: "error", example: "`\"ts\": 1e400` → *\"ts\" 1e400 is out of range: beyond the largest number a double holds (about 1.8e308), JSON readers make it Infinity or null* (also `dur`, and a string holding such a number)" },
  { code: "chrome.ts-string", severity: "information", example: "`\"ts\": \"23.5\"` → *\"ts\" is a string holding a number (1 event): it is read as that number* (once per file, on the first)" },
  { code: "chrome.unpaired-async", severity: "error", example: "`b` \"req\" id 9 with no `e` → *Async begin \"req\" (id \"9\") has no \"e\" with the same category and id*; an `e` with no `b` likewise" },
  { code: "chrome.unpaired-flow", severity: "warning", example: "`s` id 1 with no `t`/`f` at or after its time → *Flow start with id \"1\" has no \"t\" or \"f\" with the same category and id at or after its time: no arrow is drawn (if the trace stopped before the flow's end, the profiling window cut it)*; an `f` with no `s` at or before its time likewise (paired over the whole file by time, not in file order)" },
  { code: "chrome.duplicate-metadata", severity: "warning", example: "a second `process_name` of pid 1 → *process_name of pid \"1\" is given again as \"renamed\"; it was \"app\": the last one wins*" },
  { code: "chrome.counter-not-numeric", severity: "error", example: "`{\"ph\": \"C\", \"name\": \"mem\", \"args\": {\"value\": \"lots\"}}` → *Counter \"mem\": args.value is \"lots\", not a number: it is not drawn*" },
  { code: "chrome.invalid-json", severity: "error", example: "`{\"ph\": \"X\", \"name\": \"broken\" \"pid\": 1}` → *Invalid JSON in this event: Expected ',' or '}' after property value* (where the parse stopped; the next event is read)" },
  { code: "chrome.not-object", severity: "error", example: "`42` in `traceEvents` → *Each element of traceEvents must be an event object; this one is a number*" },
  { code: "chrome.truncated", severity: "information", example: "an array with no closing `]` → *The events array has no closing \"]\" (the file was cut off, or written by a tracer that never closes it): Chrome and Perfetto read it as it is* (at the end)" },
  { code: "chrome.not-trace", severity: "error", example: "`{\"events\": []}` → *Not a Chrome trace: the top-level object has no \"traceEvents\" array*; text that is not JSON, a document cut inside a key" },
  { code: "chrome.event-too-large", severity: "error", example: "one event over 16 MB → *This event is over 16 MB: it is not read*" },
];
