import type { ErrorObject } from 'ajv';
import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import { pointer, quoteString, schemaProblem } from '../common/schemaMessages';
import event from '../../schemas/inferscope/event.schema.json';
import cpu_call from '../../schemas/inferscope/cpu_call.schema.json';
import cpu_syscall from '../../schemas/inferscope/cpu_syscall.schema.json';
import gpu_kernel from '../../schemas/inferscope/gpu_kernel.schema.json';
import h2d_copy from '../../schemas/inferscope/h2d_copy.schema.json';
import d2h_copy from '../../schemas/inferscope/d2h_copy.schema.json';
import memory_event from '../../schemas/inferscope/memory_event.schema.json';
import instant from '../../schemas/inferscope/instant.schema.json';
import { kindOf, type ParsedInferscope, type TopField } from './model';
import { locate } from './parser';
import type { Report } from '../json/report';
import {
  validateAnalysis, validateEvent, validateReport, validateScope, validateSystemInfo, validateTraceMetadata,
} from './validator';

type Props = Record<string, { type?: string | string[] }>;
const props = (s: unknown) => (s as { properties: Props }).properties;
const PROPS: Record<string, Props> = {
  cpu_call: props(cpu_call), cpu_syscall: props(cpu_syscall), gpu_kernel: props(gpu_kernel), h2d_copy: props(h2d_copy),
  d2h_copy: props(d2h_copy), memory_event: props(memory_event), instant: props(instant),
};
const COMMON = props(event);

/** Schema problems of one value per ajv error, each on the token it is about. */
export function reportSchema(report: Report, text: string, base: number, errors: readonly ErrorObject[], label: string, obj: unknown, props: Props): void {
  // ajv reports an over-long array element by element: a few per value say enough.
  let n = 0;
  // An event's own schema and the common one it includes both require `id`, `type`, `name`: say it once.
  const said = new Set<string>();
  for (const err of errors) {
    if (++n > 20) break;
    const path = pointer(err.instancePath).map((s) => (/^\d{1,9}$/.test(s) ? Number(s) : s));
    const at = path.length ? locate(text, base, path) : undefined;
    const [a, b] = at ? [at.valueStart, at.valueEnd] : [base, base + 1];
    if (!report.wants(a)) {
      report.count('error', 'inferscope.schema');
      continue;
    }
    const problem = schemaProblem(err, { label, obj, fieldType: (name) => (props[name] ?? COMMON[name])?.type, token: () => text.slice(a, b) });
    if (!problem || said.has(`${a}:${problem.message}`)) continue;
    said.add(`${a}:${problem.message}`);
    report(a, b, 'error', 'inferscope.schema', problem.message);
  }
}

/** Schema problems of every event, by the schema of its `type`. */
export function eventSchemas(doc: ParsedInferscope, report: Report): void {
  for (const e of doc.events) {
    if (e.broken) continue;
    if (!e.obj) {
      report(e.start, e.end, 'error', 'inferscope.schema', `Each event must be an object, got ${e.kind === 'array' ? 'an array' : `a ${e.kind}`}`);
      continue;
    }
    const errors = validateEvent(e.obj);
    if (!errors) continue;
    if (!report.wants(e.start)) {
      report.count('error', 'inferscope.schema');
      continue;
    }
    const t = typeof e.obj.type === 'string' ? e.obj.type : undefined;
    const known = t !== undefined && Object.hasOwn(PROPS, t);
    reportSchema(report, doc.text, e.start, errors, known ? `${t} event` : 'Event', e.obj, known ? PROPS[t] : COMMON);
  }
}

export function scopeSchemas(doc: ParsedInferscope, report: Report): void {
  for (const s of doc.scopes) {
    if (s.broken) continue;
    if (!s.obj) {
      report(s.start, s.end, 'error', 'inferscope.schema', `Each scope must be an object, got ${s.kind === 'array' ? 'an array' : `a ${s.kind}`}`);
      continue;
    }
    const errors = validateScope(s.obj);
    if (errors) reportSchema(report, doc.text, s.start, errors, 'Scope', s.obj, {});
  }
}

/** The version field: a string whose major version is 1. */
function versionCheck(report: Report, f: TopField | undefined, what: string): void {
  if (!f || typeof f.value !== 'string') return;
  if (/^1(\.\d{1,9}){0,3}$/.test(f.value)) return;
  report(f.valueStart, f.valueEnd, 'error', 'inferscope.unsupported-version',
    `Unsupported ${what} ${quoteString(f.value)}: this reader knows version 1.x (inferscope-data-model §2.2)`);
}

function missing(doc: ParsedInferscope, report: Report, key: string, what: string): void {
  if (doc.fields.has(key)) return;
  report(doc.rootSpan.start, doc.rootSpan.start + 1, 'error', 'inferscope.schema', `${what} is missing required field "${key}"`);
}

function wrongKind(report: Report, f: TopField | undefined, want: string): boolean {
  // A value the parser could not finish is reported as invalid JSON already.
  if (!f || f.kind === want || f.kind === 'invalid' || f.valueEnd === f.valueStart) return false;
  report(f.valueStart, f.valueEnd, 'error', 'inferscope.schema', `"${escapeControl(clip(f.key))}" must be ${want === 'object' || want === 'array' ? 'an' : 'a'} ${want}, got ${f.kind === 'array' || f.kind === 'object' ? `an ${f.kind}` : `a ${f.kind}`}`);
  return true;
}

/** The top level of a trace: the object, its version, metadata blocks and the shape of the arrays. */
export function traceRoot(doc: ParsedInferscope, report: Report): void {
  const f = doc.fields;
  // Where the parser stopped early, the fields after that point were never seen, not missing.
  if (doc.syntax.length === 0) {
    missing(doc, report, 'format_version', 'An InferScope trace');
    missing(doc, report, 'events', 'An InferScope trace');
  }
  if (!wrongKind(report, f.get('format_version'), 'string')) versionCheck(report, f.get('format_version'), 'format_version');
  wrongKind(report, f.get('events'), 'array');
  const rel = f.get('relationships');
  wrongKind(report, rel, 'object');
  for (const [key, validate] of [['trace_metadata', validateTraceMetadata], ['system_info', validateSystemInfo]] as const) {
    const m = f.get(key);
    if (!m || m.valueEnd === m.valueStart) continue;
    const errors = validate(m.value);
    if (errors) reportSchema(report, doc.text, m.valueStart, errors, key, m.value, {});
  }
  if (doc.scopesKey && rel && doc.scopesKind !== 'array') {
    // Located only when wrong: scanning a million scopes for a position nobody needs costs seconds.
    const at = locate(doc.text, rel.valueStart, ['scopes']);
    if (at) report(at.valueStart, at.valueEnd, 'error', 'inferscope.schema', `"relationships.scopes" must be an array, got ${doc.scopesKind === 'object' ? 'an object' : `a ${doc.scopesKind}`}`);
  }
}

/** An analysis result (§3.1) or a report (§3.2), validated whole: such files are small. */
export function resultRoot(doc: ParsedInferscope, report: Report): void {
  const kind = kindOf(doc);
  const obj: Record<string, unknown> = {};
  for (const [k, v] of doc.fields) if (k !== '__proto__') obj[k] = v.value;
  const errors = kind === 'report' ? validateReport(obj) : validateAnalysis(obj);
  if (errors) reportSchema(report, doc.text, doc.rootSpan.start, errors, kind === 'report' ? 'An InferScope report' : 'An analysis result', obj, {});
  versionCheck(report, doc.fields.get('analysis_version'), 'analysis_version');
  const a = doc.fields.get('analysis');
  if (a && a.value && typeof a.value === 'object') {
    const v = (a.value as Record<string, unknown>).analysis_version;
    if (typeof v === 'string' && !/^1(\.\d{1,9}){0,3}$/.test(v)) {
      const at = locate(doc.text, a.valueStart, ['analysis_version']);
      if (at) report(at.valueStart, at.valueEnd, 'error', 'inferscope.unsupported-version', `Unsupported analysis_version ${quoteString(v)}: this reader knows version 1.x`);
    }
  }
}
