// Preloaded into the language server by test/hostile/server.test.ts: the trace format's parse maps
// the document's lines, and throws here when the first line is the marker, as a bug in a format
// would. The message holds terminal controls and is long, to check it is escaped and capped.
const map = Array.prototype.map;
Array.prototype.map = function (...args) {
  if (typeof this[0] === 'string' && this[0] === '{"event_type":"__npu_test_throw__"}') {
    throw new Error(`injected failure \u001b[31mred\u001b[0m\n${'x'.repeat(20000)}`);
  }
  return map.apply(this, args);
};
