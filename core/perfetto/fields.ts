// Field numbers of the parts of Perfetto's trace protos this reader models (protos/perfetto/trace/
// in google/perfetto, Apache-2.0), written out by hand for the messages read here. Every other field
// is skipped by its wire type, so traces of newer Perfetto versions read as well.

/** `Trace`: the file is this message, a sequence of `packet` fields. */
export const TRACE_PACKET = 1;

/** `TracePacket`. */
export const PACKET = {
  ftraceEvents: 1,
  processTree: 2,
  clockSnapshot: 6,
  timestamp: 8,
  trustedPacketSequenceId: 10,
  trackEvent: 11,
  internedData: 12,
  sequenceFlags: 13,
  incrementalStateCleared: 41,
  previousPacketDropped: 42,
  compressedPackets: 50,
  timestampClockId: 58,
  tracePacketDefaults: 59,
  trackDescriptor: 60,
  zstdCompressedPackets: 133,
} as const;

/** `TracePacket.SequenceFlags`. */
export const SEQ_INCREMENTAL_STATE_CLEARED = 1;
export const SEQ_NEEDS_INCREMENTAL_STATE = 2;

/** `FtraceEventBundle`, `FtraceEvent`, `PrintFtraceEvent`. */
export const FTRACE_BUNDLE = { cpu: 1, event: 2, compactSched: 4 } as const;
export const FTRACE_EVENT = { timestamp: 1, pid: 2, print: 3 } as const;
export const PRINT = { buf: 2 } as const;

/** `ProcessTree` and its `Process` / `Thread`. */
export const PROCESS_TREE = { processes: 1, threads: 2 } as const;
export const PT_PROCESS = { pid: 1, ppid: 2, cmdline: 3 } as const;
export const PT_THREAD = { tid: 1, name: 2, tgid: 3 } as const;

/** `TrackEvent`. */
export const TRACK_EVENT = {
  categoryIids: 3,
  debugAnnotations: 4,
  type: 9,
  nameIid: 10,
  trackUuid: 11,
  categories: 22,
  name: 23,
  counterValue: 30,
  doubleCounterValue: 44,
  flowIds: 47,
  terminatingFlowIds: 48,
} as const;
export const TYPE = { sliceBegin: 1, sliceEnd: 2, instant: 3, counter: 4 } as const;

/** `DebugAnnotation`: name or interned name, one value (scalars, strings, interned strings, nested). */
export const DEBUG_ANNOTATION = {
  nameIid: 1, bool: 2, uint: 3, int: 4, double: 5, string: 6, pointer: 7, nested: 8, legacyJson: 9, name: 10,
  dictEntries: 11, arrayValues: 12, protoValue: 14, stringIid: 17,
} as const;
/** `DebugAnnotation.NestedValue` and its `NestedType` (DICT, ARRAY; UNSPECIFIED: a leaf). */
export const NESTED_VALUE = {
  nestedType: 1, dictKeys: 2, dictValues: 3, arrayValues: 4, int: 5, double: 6, bool: 7, string: 8, DICT: 1, ARRAY: 2,
} as const;

/** `TrackDescriptor`, `ProcessDescriptor`, `ThreadDescriptor`, `CounterDescriptor`. */
export const TRACK_DESCRIPTOR = { uuid: 1, name: 2, process: 3, thread: 4, parentUuid: 5, counter: 8 } as const;
export const PROCESS_DESCRIPTOR = { pid: 1, cmdline: 2, processName: 6 } as const;
export const THREAD_DESCRIPTOR = { pid: 1, tid: 2, threadName: 5 } as const;
export const COUNTER_DESCRIPTOR = { unitName: 6 } as const;

/** `InternedData` and its `EventName` / `EventCategory` / `DebugAnnotationName` entries (iid 1, name 2). */
export const INTERNED = { eventCategories: 1, eventNames: 2, debugAnnotationNames: 3, debugAnnotationStringValues: 29 } as const;
export const INTERNED_ENTRY = { iid: 1, name: 2 } as const;
/** `InternedString` (debug annotation string values): iid 1, str 2 (bytes). */

/** `TracePacketDefaults` and `TrackEventDefaults`. */
export const PACKET_DEFAULTS = { trackEventDefaults: 11, timestampClockId: 58 } as const;
export const TRACK_EVENT_DEFAULTS = { trackUuid: 11 } as const;

/** `ClockSnapshot` and its `Clock`. */
export const CLOCK_SNAPSHOT = { clocks: 1, primaryTraceClock: 2 } as const;
export const CLOCK = { clockId: 1, timestamp: 2, isIncremental: 3, unitMultiplierNs: 4 } as const;

/** `BuiltinClock` ids; 64–127 are clocks of one packet sequence. */
export const CLOCK_ID = { realtime: 1, realtimeCoarse: 2, monotonic: 3, monotonicCoarse: 4, monotonicRaw: 5, boottime: 6 } as const;
export const FIRST_SEQUENCE_CLOCK = 64;
