/**
 * One trace per case of nnapi-systrace-contract.txt. Every expected number is derived by hand
 * from nnapi-systrace-rules.md (derivation in the comment above each case); times in ms, checked
 * to 0.01 ms. `times` are totals per phase → layer, `selfTimes` the self-times.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText, cells, codes, runAgg } from './helpers';
import { benchmarkTrace } from './traces';
import { thread, trace } from './traceBuilder';

const NaN_ = Number.NaN;

describe('nnapi contract cases', () => {
  it('baseline', () => {
    // LA_PO app 0..20 > LR_PP funcP 10..13. Nothing is rewritten (parent phase PO).
    // LA_PO counts 20, LR_PP counts 3. LR PO total is 0 → Σ main phases = 3. LT PO = max(20, 3) = 20.
    // Self PO: LR 3 (t=3), LA 20 − 3 = 17.
    const doc = analyzeText(trace(thread([[0, '[NN_LA_PO]app'], [10, '[NN_LR_PP]funcP'], [13, 'E'], [20, 'E']])));
    assert.deepEqual(codes(doc), []);
    const a = runAgg(doc);
    cells(a.times, { 'PP.LR': 3, 'PO.LA': 20, 'PO.LR': 3, 'PO.LT': 20, 'PP.LA': NaN_, 'PE.LR': 0 }, 'times');
    cells(a.selfTimes, { 'PP.LR': 3, 'PO.LA': 17, 'PO.LR': 3 }, 'self');
  });

  it('local call to another layer', () => {
    // LA_PP funcE1 0..9 > LR_PP funcC1 2..7: same phase under LA, so not misplaced.
    // LA PP 9, LR PP 5. LA PO: 0 → missing (LA), not replaced. Self PP: LR 5, LA 9 − 5 = 4.
    const doc = analyzeText(trace(thread([[0, '[NN_LA_PP]funcE1'], [2, '[NN_LR_PP]funcC1'], [7, 'E'], [9, 'E']])));
    assert.deepEqual(codes(doc), []);
    const a = runAgg(doc);
    cells(a.times, { 'PP.LA': 9, 'PP.LR': 5, 'PO.LA': NaN_, 'PO.LR': 5, 'PO.LT': 5, 'PP.LT': 9 }, 'times');
    cells(a.selfTimes, { 'PP.LR': 5, 'PP.LA': 4 }, 'self');
  });

  it('switch phase during a function', () => {
    // LC_PTR funcC1 0..4, then [SW] at 4 closes it and opens a dummy (4..11) holding LC_PCO 4..10.
    // The dummy goes; t3 − t2 (10..11) is not counted. PTR 4, PCO 6; both execution subphases with
    // no enclosing LC_PE, so LC PE = 4 + 6 = 10; LC PO = Σ main phases = 10.
    const doc = analyzeText(trace(thread([[0, '[NN_LC_PTR]funcC1'], [4, '[SW][NN_LC_PCO]funcC1'], [10, 'E'], [11, 'E']])));
    assert.deepEqual(codes(doc), ['nnapi.no-runtime']);
    const a = runAgg(doc);
    cells(a.times, { 'PTR.LC': 4, 'PCO.LC': 6, 'PE.LC': 10, 'PO.LC': 10 }, 'times');
    cells(a.selfTimes, { 'PE.LC': 10, 'PCO.LC': 6 }, 'self');
  });

  it('subphases of execution', () => {
    // LR_PE funcR2 0..9 > LC_PCO funcC2 2..7: LC_PCO counts 5 to PCO and, with no LC_PE above it,
    // 5 to LC PE. LR PE is the special case (no startCompute/wait here) = 0.
    // Second thread: LC_PE x 0..10 > LC_PIO io 1..3: PIO 2, but not added again to PE (inside LC_PE).
    const doc = analyzeText(trace(
      thread([[0, '[NN_LR_PE]funcR2'], [2, '[NN_LC_PCO]funcC2'], [7, 'E'], [9, 'E']]),
      thread([[20, '[NN_LC_PE]x'], [21, '[NN_LC_PIO]io'], [23, 'E'], [30, 'E']], 101, 100),
    ));
    assert.deepEqual(codes(doc), []);
    const a = runAgg(doc);
    // LC PE = 5 (from PCO) + 10 (LC_PE x) = 15; LC PIO = 2; LC PCO = 5.
    cells(a.times, { 'PCO.LC': 5, 'PIO.LC': 2, 'PE.LC': 15, 'PE.LR': 0, 'PE.LT': 15 }, 'times');
  });

  it('additional detail in the same layer', () => {
    // LR_PC funcR3 0..9 > LR_PC funcR4 2..5: funcR4 is added detail, not counted; funcR3 counts 9.
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PC]funcR3'], [2, '[NN_LR_PC]funcR4'], [5, 'E'], [9, 'E']])));
    assert.deepEqual(codes(doc), []);
    cells(runAgg(doc).times, { 'PC.LR': 9 }, 'times');
  });

  it('synchronous IPC call', () => {
    // LR_PC funcR5 0..20 > LI_PI getCapabilities 2..8 > HIDL::IDevice::getCapabilities::client 3..7
    // (automatic: ::client → LI, getCapabilities → PI).
    // Step 3(b): LI_PI 2..8 is PI under PC → copied to the root, original subtract. The HIDL scope
    // is PI under PI: added detail. LR_PC = 20 − 6 = 14; the copy counts LI PI = 6.
    // PO: LR 14, LI 6; LT PO = 14. Self PO: LD 0; LI (driver did no execution) = 6 − 0 with t
    // unchanged; LR = 14 − 0 = 14.
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PC]funcR5'], [2, '[NN_LI_PI]getCapabilities'],
      [3, 'HIDL::IDevice::getCapabilities::client'], [7, 'E'], [8, 'E'], [20, 'E']])));
    assert.deepEqual(codes(doc), []);
    const a = runAgg(doc);
    cells(a.times, { 'PC.LR': 14, 'PI.LI': 6, 'PO.LR': 14, 'PO.LI': 6, 'PO.LT': 14, 'PC.LT': 14 }, 'times');
    cells(a.selfTimes, { 'PC.LR': 14, 'PI.LI': 6, 'PI.LR': 0, 'PO.LI': 6, 'PO.LR': 14 }, 'self');
  });

  it('asynchronous IPC call waited for by the runtime, with a driver process', () => {
    // App thread 100 (process 100): LR_PC funcRC 0..13 > LI_PC prepareModel 1..12 >
    //   HIDL::IDevice::prepareModel_1_1::client 2..11 (LI PC, added detail) > notify::server 9..10 (LX, removed).
    // Driver thread 201 (process 200, a driver: it has HIDL::IDevice::..::server):
    //   HIDL::IDevice::prepareModel_1_1::server 3..8 (LD PC) > [NN_LD_PC]SampleDriver::prepareModel 4..7
    //   (added detail) > IPreparedModelCallback::notify::client 5..6 (LX).
    // (The contract's prose says t10 − t0 and t6 − t2; the rules close each scope at its own E: 11 and 5.)
    // LR PC 13, LI PC 11, LD PC 5. Self PC: LD 5, LI 11 − 5 = 6, LR 13 − 11 = 2.
    // Self PO: LD did no execution → LD 5, LI 11 − 5 = 6 (t stays 0), LR 13 − 0 = 13.
    const app = thread([[0, '[NN_LR_PC]funcRC'], [1, '[NN_LI_PC]prepareModel'], [2, 'HIDL::IDevice::prepareModel_1_1::client'],
      [9, 'HIDL::IPreparedModelCallback::notify::server'], [10, 'E'], [11, 'E'], [12, 'E'], [13, 'E']]);
    const drv = thread([[3, 'HIDL::IDevice::prepareModel_1_1::server'], [4, '[NN_LD_PC]SampleDriver::prepareModel'],
      [5, 'HIDL::IPreparedModelCallback::notify::client'], [6, 'E'], [7, 'E'], [8, 'E']], 201, 200, 'HwBinder:200_1');
    const doc = analyzeText(trace(app, drv));
    assert.deepEqual(codes(doc), []);
    const a = runAgg(doc);
    cells(a.times, { 'PC.LR': 13, 'PC.LI': 11, 'PC.LD': 5, 'PO.LD': 5, 'PO.LI': 11, 'PO.LR': 13 }, 'times');
    cells(a.selfTimes, { 'PC.LD': 5, 'PC.LI': 6, 'PC.LR': 2, 'PO.LD': 5, 'PO.LI': 6, 'PO.LR': 13 }, 'self');
  });

  it('subtracting time when nesting is violated', () => {
    // LI_PC prepareModel 0..10 > [SUB]LR_PC VersionedIDevice::prepareModel 3..7.
    // Step 3(a): from LI_PC up to a non-detail LR scope: none → root; the copy (3..7) goes to the root.
    // LI PC = 10 − 4 = 6; LR PC = 4 (the copy). Self PC: LI 6, LR 4 − 6 = −2 (as the rules compute it).
    const doc = analyzeText(trace(thread([[0, '[NN_LI_PC]prepareModel'], [3, '[SUB][NN_LR_PC]VersionedIDevice::prepareModel'], [7, 'E'], [10, 'E']])));
    assert.deepEqual(codes(doc), []);
    const a = runAgg(doc);
    cells(a.times, { 'PC.LI': 6, 'PC.LR': 4 }, 'times');
    cells(a.selfTimes, { 'PC.LI': 6, 'PC.LR': -2 }, 'self');

    // Inside a runtime scope: LR_PC funcRC 0..12 > LI_PC 1..11 > [SUB]LR_PC 3..7. The walk stops at
    // funcRC (same layer, not detail), then goes one more level up: the copy lands at the root.
    // LI PC = 10 − 4 = 6; LR PC = 12 (funcRC: its LI child is not detail, subtracts nothing) + 4 = 16.
    const nested = analyzeText(trace(thread([[0, '[NN_LR_PC]funcRC'], [1, '[NN_LI_PC]prepareModel'],
      [3, '[SUB][NN_LR_PC]VersionedIDevice::prepareModel'], [7, 'E'], [11, 'E'], [12, 'E']])));
    assert.deepEqual(codes(nested), []);
    cells(runAgg(nested).times, { 'PC.LI': 6, 'PC.LR': 16 }, 'times');
  });

  it('one-time initialization', () => {
    // LR_PP funcR5 0..10 > LR_PI funcI 2..5: step 3(b) copies funcI to the root, original subtract.
    // LR PP = 10 − 3 = 7, LR PI = 3, LR PO = 7 + 3 = 10.
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PP]funcR5'], [2, '[NN_LR_PI]funcI'], [5, 'E'], [10, 'E']])));
    assert.deepEqual(codes(doc), []);
    cells(runAgg(doc).times, { 'PP.LR': 7, 'PI.LR': 3, 'PO.LR': 10 }, 'times');
  });

  it('utility code', () => {
    // LR_PP funcR6 0..10 > LU_PU funcU 2..6: PU takes PP; LU is another layer, so funcU is not detail
    // and subtracts nothing: LR PP = 10.
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PP]funcR6'], [2, '[NN_LU_PU]funcU'], [6, 'E'], [10, 'E']])));
    assert.deepEqual(codes(doc), []);
    cells(runAgg(doc).times, { 'PP.LR': 10, 'PO.LR': 10 }, 'times');
  });

  it('several threads pair B/E per thread, not per process', () => {
    // Thread 100: LR_PC a 0..5; thread 101 (same process): LI_PC b 2..9, rows interleaved.
    // Per thread: LR PC 5, LI PC 7 (per process the E at 5 would close b instead: LI 3, LR 9).
    const doc = analyzeText(trace(thread([[0, '[NN_LR_PC]a'], [5, 'E']]), thread([[2, '[NN_LI_PC]b'], [9, 'E']], 101, 100)));
    const a = runAgg(doc);
    cells(a.times, { 'PC.LR': 5, 'PC.LI': 7 }, 'times');
  });
});

describe('nnapi warm-up, benchmark and runs', () => {
  // Run 1, one thread. Executions (LA_PE exec > create, startCompute, wait):
  //   warm-up: exec 2..11: create 3..4, startCompute 5..6, wait 7..10
  //   benchmark: exec 14..22: create 15..16, start 17..18, wait 19..21; exec 23..32: create 24..25, start 26..27, wait 28..31
  // Counts (Execution_create): PWU 1, PBM 2, PO 0 → warm-up and benchmark reported apart.
  // LA PE: PWU 9, PBM 8 + 9 = 17 → PE.LA = 26. LR PE (special): PWU (10 − 5) + 1 = 6;
  //   PBM (21 − 17) + (31 − 26) + 1 + 1 = 11 → PE.LR = 17. LA PO = 34; LR PO = Σ main = 17.
  // Self PE: LR 17, LA 26 − 17 = 9; PBM: LR 11, LA 6; PWU: LR 6, LA 3. Self PO: LR 17, LA 17.
  it('splits warm-up and benchmark and counts executions', () => {
    const doc = analyzeText(benchmarkTrace());
    assert.deepEqual(codes(doc), []);
    assert.equal(doc.analysis.runs.length, 2);
    const a = runAgg(doc, 0);
    assert.deepEqual(a.executionCounts, { PO: 0, PWU: 1, PBM: 2 });
    assert.equal(a.hasWarmupAndBenchmark, true);
    cells(a.times, { 'PE.LA': 26, 'PE.LR': 17, 'PO.LA': 34, 'PO.LR': 17, 'PWU.PE.LA': 9, 'PWU.PE.LR': 6, 'PBM.PE.LA': 17, 'PBM.PE.LR': 11, 'PBM.PE.LT': 17 }, 'times');
    cells(a.selfTimes, { 'PE.LR': 17, 'PE.LA': 9, 'PBM.PE.LR': 11, 'PBM.PE.LA': 6, 'PWU.PE.LA': 3, 'PO.LA': 17, 'PO.LR': 17 }, 'self');
  });

  it('starts a new run at each [NN_LA_PO] with fresh numbers', () => {
    // Run 2: LA_PO second 40..50 > LR_PP model 41..44: LR PP 3, LA PO 10, no executions.
    const doc = analyzeText(benchmarkTrace());
    const r = doc.analysis.runs[1];
    assert.equal(r.run.startingMark, 'B|100|[NN_LA_PO]second');
    const a = runAgg(doc, 1);
    assert.deepEqual(a.executionCounts, { PO: 0, PWU: 0, PBM: 0 });
    cells(a.times, { 'PP.LR': 3, 'PO.LA': 10, 'PE.LR': 0 }, 'times');
  });
});

describe('nnapi driver process', () => {
  // App thread 100 (process 100): LR_PC compile 0..10 > [NN_LD_PC]cpuCompile 2..6 → LC in an app process
  //   (so LC under LR: no violation); LR_PE startCompute 18..19, LR_PE Event_wait 19..30 → LR PE = 30 − 18 = 12.
  // Driver thread 202 (process 200): HIDL::IDevice::prepareModel_1_2::server 3..5 → LD PC 2; makes 200 a driver.
  // Driver thread 201 (process 200): HIDL::IPreparedModel::execute::server 20..28 (LD PE) >
  //   [NN_LC_PCO]cpuOp 21..25 → LD in a driver: LD PCO 4, not added to LD PE (inside LD_PE);
  //   IExecutionCallback::notify::client 26..27 (LX). LD PE (special) = 26 − 20 = 6.
  // Totals: LR PC 10, PE 12, PO 22; LC PC 4, PO 4; LD PC 2, PE 6, PCO 4, PO 2 + 6 = 8.
  // LT: PC 10, PE 12, PO 22. Self PE: LD 6, LR 12 − 6 = 6. Self PO: LC 4, LD 8 − 4 = 4, LR 22 − 8 = 14.
  // Self PC: LC 4, LD 2 − 4 = −2, LR 10 − 2 = 8.
  it('maps CPU/driver layers by process and times driver execution from HIDL marks', () => {
    const app = thread([[0, '[NN_LR_PC]compile'], [2, '[NN_LD_PC]cpuCompile'], [6, 'E'], [10, 'E'],
      [18, '[NN_LR_PE]ANeuralNetworksExecution_startCompute'], [19, 'E'], [19.5, '[NN_LR_PE]ANeuralNetworksEvent_wait'], [30, 'E']]);
    const devThread = thread([[3, 'HIDL::IDevice::prepareModel_1_2::server'], [5, 'E']], 202, 200, 'HwBinder:200_2');
    const exec = thread([[20, 'HIDL::IPreparedModel::execute::server'], [21, '[NN_LC_PCO]cpuOp'], [25, 'E'],
      [26, 'HIDL::IExecutionCallback::notify::client'], [27, 'E'], [28, 'E']], 201, 200, 'HwBinder:200_1');
    const doc = analyzeText(trace(app, devThread, exec));
    assert.deepEqual(codes(doc), []);
    const a = runAgg(doc);
    cells(a.times, { 'PC.LR': 10, 'PE.LR': 12, 'PO.LR': 22, 'PC.LC': 4, 'PO.LC': 4, 'PC.LD': 2, 'PE.LD': 6, 'PCO.LD': 4, 'PO.LD': 8,
      'PIO.LD': NaN_, 'PC.LT': 10, 'PE.LT': 12, 'PO.LT': 22 }, 'times');
    cells(a.selfTimes, { 'PE.LD': 6, 'PE.LR': 6, 'PO.LC': 4, 'PO.LD': 4, 'PO.LR': 14, 'PC.LC': 4, 'PC.LD': -2, 'PC.LR': 8 }, 'self');
  });
});
