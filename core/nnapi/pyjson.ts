/**
 * JSON text as Python's `json.dumps(indent=2, sort_keys=True)` writes it, with NaN as `null`,
 * so output can be diffed byte for byte against the reference parser's `--json`.
 */
export function pythonJson(value: unknown, isInt: (path: readonly string[]) => boolean, indent = ''): string {
  return write(value, [], indent, isInt);
}

function write(v: unknown, path: string[], indent: string, isInt: (path: readonly string[]) => boolean): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return isInt(path) && Number.isInteger(v) ? String(v) : pythonFloat(v);
  if (typeof v === 'string') return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    return `[\n${v.map((x, i) => inner + write(x, [...path, String(i)], inner, isInt)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(v as object).sort();
  if (!keys.length) return '{}';
  const obj = v as Record<string, unknown>;
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${write(obj[k], [...path, k], inner, isInt)}`).join(',\n')}\n${indent}}`;
}

/** Python's `repr(float)`: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'null';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mant, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  if (exp >= -4 && exp < 16) {
    const s = String(x);
    return s.includes('.') || s.includes('e') ? s : `${s}.0`;
  }
  const sign = exp < 0 ? '-' : '+';
  return `${mant}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
}
