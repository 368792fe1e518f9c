/** "data.trace.jsonl" → "data.chrome.json": the name proposed next to the source, saying what it holds. */
export function exportName(name: string): string {
  const base = name.replace(/\.gz$/i, '').replace(/\.(?:trace\.jsonl|jsonl|systrace|atrace|ftrace|html?|json|perfetto-trace|pftrace|perfetto(?:\.trace)?)$/i, '');
  return `${base || 'trace'}.chrome.json`;
}
