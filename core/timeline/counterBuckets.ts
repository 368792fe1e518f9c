/** Enough buckets for a full-width heatmap on a wide screen; zooming further shows the spans. */
export const COUNTER_BUCKETS = 2048;
