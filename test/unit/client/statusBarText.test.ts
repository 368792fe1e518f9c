import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatNs, statusBarText } from '../../../client/statusBarText';

describe('the trace status-bar text', () => {
  it('shows events, the span in cycles and in time when the clock is known, and the problems', () => {
    const s = statusBarText({ events: 3369, first: 100, last: 52_100, nsPerCycle: 1 / 1.2 }, 2, 'llm.trace.jsonl');
    assert.equal(s.text, '$(warning) 3,369 events · 52,000 cycles (43.3 µs) · 2 problems');
    assert.match(s.tooltip, /^llm\.trace\.jsonl: 3,369 events, cycles 100\.\.52,100, clock 1\.200 GHz, 2 problems\. Click to show the timeline\.$/);
  });

  it('says so when the trace has no clock or no t_cycle, and counts in the singular', () => {
    assert.equal(statusBarText({ events: 1, first: 5, last: 9, nsPerCycle: null }, 1, 'a').text, '$(warning) 1 event · 4 cycles · 1 problem');
    assert.equal(statusBarText({ events: 0, first: null, last: null, nsPerCycle: null }, 0, 'a').text, '$(pulse) 0 events · — cycles · 0 problems');
  });

  it('keeps control characters of a file name out of the tooltip', () => {
    assert.ok(!statusBarText({ events: 0, first: null, last: null, nsPerCycle: null }, 0, 'a\u001b[31mb').tooltip.includes('\u001b'));
  });

  it('picks the unit of a duration', () => {
    assert.deepEqual([formatNs(12), formatNs(1500), formatNs(2.5e6), formatNs(3e9)], ['12.0 ns', '1.50 µs', '2.50 ms', '3.00 s']);
  });
});
