import type { ReportOptions, TemplateInputs } from './report';

/**
 * The text table of the timing summary, laid out like the reference parser's: `-` for 0, `n/a`
 * for missing, `*` on totals that ignore missing values, no CPU row when CPU has no time.
 */

/** Python's `'{:.2f}'`: round half to even on the exact binary value (JS `toFixed` rounds ties up). */
export function fixed2(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const scaled = Math.abs(x) * 100;
  if (scaled - Math.floor(scaled) === 0.5 && Math.floor(scaled) % 2 === 0 && Number.isSafeInteger(Math.floor(scaled))) {
    // An exact tie (x·100 is exactly k + ½): Python keeps the even k.
    const k = Math.floor(scaled);
    const s = (k / 100).toFixed(2);
    return x < 0 ? `-${s}` : s;
  }
  return x.toFixed(2);
}

const f = (v: number, w: number) => fixed2(v).padStart(w);

/** The table's rows: label and layer code. */
const LAYER_ROWS = [['Application', 'LA'], ['Runtime', 'LR'], ['IPC', 'LI'], ['Driver', 'LD'], ['CPU', 'LC']] as const;

function allPhasesTable(v: TemplateInputs, title: string): string[] {
  const cells = (l: string) => [f(v[`${l}_PI`], 9), f(v[`${l}_PP`], 9), f(v[`${l}_PC`], 9), f(v[`${l}_PIO`], 11), f(v[`${l}_PEO`], 11),
    f(v[`${l}_PR`], 9), f(v[`${l}_PE`], 9), f(v[`${l}_PT`], 9), f(v[`${l}_PO`], 9)];
  const row = (label: string, l: string) => {
    const [pi, pp, pc, pio, peo, pr, pe, pt, po] = cells(l);
    return `${label.padEnd(19)}${pi}     ${pp}     ${pc}   ${pio}   ${peo}    ${pr}     ${pe}     ${pt}    ${po}${l === 'LA' ? '*' : ''}`;
  };
  const [pi, pp, pc, pio, peo, pr, pe, pt, po] = cells('LT');
  const bar = '='.repeat(139);
  return [
    '',
    bar,
    `NNAPI timing summary (${title}, ms wall-clock)`.padEnd(102) + 'Execution',
    ' '.repeat(59) + '-'.repeat(52),
    '              Initialization   Preparation   Compilation           I/O       Compute      Results     Ex. total   Termination        Total',
    '              --------------   -----------   -----------   -----------  ------------  -----------   -----------   -----------   ----------',
    ...LAYER_ROWS.map(([label, l]) => row(label, l)),
    '',
    `${'Total'.padEnd(19)}${pi}*    ${pp}*    ${pc}*  ${pio}*  ${peo}*   ${pr}*    ${pe}*    ${pt}*   ${po}*`,
    bar,
    '* This total ignores missing (n/a) values and thus is not necessarily consistent with the rest of the numbers',
  ];
}

function perExecutionTable(v: TemplateInputs, title: string, execLabel: string): string[] {
  const row = (label: string, l: string) =>
    `${label.padEnd(14)}${f(v[`${l}_PIO`], 11)}   ${f(v[`${l}_PEO`], 11)}    ${f(v[`${l}_PR`], 9)}     ${f(v[`${l}_PE`], 9)}  ${f(v[`${l}_PEp`], 11)}%`;
  const bar = '='.repeat(80);
  return [
    '',
    bar,
    `NNAPI timing summary (${title}, ms wall-clock)`.padEnd(71) + execLabel,
    '              ' + '-'.repeat(66),
    '                      I/O       Compute      Results         Total    Percentage',
    '              -----------  ------------  -----------   -----------   -----------',
    ...LAYER_ROWS.map(([label, l]) => row(label, l)),
    '',
    `${'Total'.padEnd(14)}${f(v.LT_PIO, 11)}*  ${f(v.LT_PEO, 11)}*   ${f(v.LT_PR, 9)}*    ${f(v.LT_PE, 9)}          100%`,
    bar,
    '* This total ignores missing (n/a) values and thus is not necessarily consistent',
    '  with the rest of the numbers',
  ];
}

/** One run's table (after its starting mark), as lines. */
export function textTable(v: TemplateInputs, hasCpu: boolean, opts: ReportOptions & { benchmarkOnly?: boolean }): string[] {
  const title = opts.totalTimes ? 'total time' : 'self-times';
  const lines = opts.perExecution ? perExecutionTable(v, title, opts.benchmarkOnly ? 'Benchmark' : 'Execution') : allPhasesTable(v, title);
  return lines
    .map((l) => l.replaceAll(' 0.00%', '     -').replaceAll(' 0.00', '    -').replaceAll(' nan', ' n/a'))
    .filter((l) => hasCpu || !l.startsWith('CPU'));
}
