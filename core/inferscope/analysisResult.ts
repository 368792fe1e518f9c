// What `npu-trace analyze` produces (inferscope-data-model §3.1), in a file of its own: the rules
// read it and the analysis builds it, so neither imports the other for it.

import type { TraceLayout } from './document';

/** The exclusive categories in priority order: a µs where several run counts for the first. */
export const CATEGORIES = ['gpu_compute', 'h2d_copy', 'd2h_copy', 'cpu_preprocessing', 'idle'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface BreakdownEntry {
  category: Category;
  duration_us: number;
  percentage: number;
  examples: string[];
}

export interface Suggestion {
  priority: 'high' | 'medium' | 'low';
  action: string;
  rationale: string;
  estimated_improvement_percent: number;
  evidence: string[];
  /** Ids of the events the finding is about (an unknown field to other readers, §2.2): see `MAX_CITED`. */
  event_ids: string[];
}

export interface AnalysisResult {
  analysis_version: '1.0';
  /** Which trace layout was read (an unknown field to other readers, §2.2): the data model's or InferScope's Profiler's. */
  trace_layout: TraceLayout;
  summary: {
    end_to_end_latency_us: number;
    total_cpu_time_us: number;
    total_gpu_time_us: number;
    total_h2d_us: number;
    total_d2h_us: number;
    total_idle_us: number;
    /** Time inside scopes with no event running: see `frameworkOverhead`. */
    framework_overhead_us: number;
  };
  timeline_breakdown: BreakdownEntry[];
  bottleneck: { type: 'cpu_bound' | 'gpu_bound' | 'memory_bound' | 'balanced'; primary_cause: string; confidence: number; evidence: string[]; event_ids: string[] };
  suggestions: Suggestion[];
}
