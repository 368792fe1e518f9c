// The NumPy `.npy` format, versions 1.0, 2.0 and 3.0 (numpy/lib/format.py): magic `\x93NUMPY`, a
// version, a header length (2 bytes in 1.0, 4 after) and a Python dict literal
// `{'descr': '<u8', 'fortran_order': False, 'shape': (4096,), }`, then the raw data.
import { KprofFormatError, MAX_BUFFER_BYTES } from './errors';
import { wordsFromBytes, type ProfBuffer } from './words';

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
/** numpy itself refuses headers over 10 000 bytes unless told otherwise; this reader is more lenient. */
const MAX_HEADER = 1 << 20;

export interface NpyHeader {
  descr: string;
  fortranOrder: boolean;
  /** Dimensions as read; a value too large to be exact is `Infinity`. */
  shape: number[];
  dataOffset: number;
}

export function isNpy(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && MAGIC.every((b, i) => bytes[i] === b);
}

export function readNpyHeader(bytes: Uint8Array): NpyHeader {
  if (bytes.length === 0) throw new KprofFormatError('The file is empty');
  if (!isNpy(bytes)) throw new KprofFormatError('Not a .npy file: it does not start with \\x93NUMPY');
  if (bytes.length < 10) throw new KprofFormatError('The .npy header is cut off (the file ends before the header length)');
  const major = bytes[6];
  if (major < 1 || major > 3) throw new KprofFormatError(`Unknown .npy format version ${major}.${bytes[7]} (1.0, 2.0 and 3.0 are read)`);
  const lenBytes = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lenBytes) throw new KprofFormatError('The .npy header is cut off (the file ends inside the header length)');
  const len = major === 1 ? bytes[8] | (bytes[9] << 8) : (bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (bytes[11] << 24)) >>> 0;
  const start = 8 + lenBytes;
  if (len > MAX_HEADER) throw new KprofFormatError(`The .npy header claims ${len} bytes, over the ${MAX_HEADER} read`);
  if (start + len > bytes.length) throw new KprofFormatError(`The .npy header is cut off: it claims ${len} bytes but the file ends after ${bytes.length - start}`);
  // Versions 1 and 2 are latin-1, 3 is UTF-8; every key and value that matters here is ASCII.
  let text = '';
  for (let i = start; i < start + len; i++) text += String.fromCharCode(bytes[i]);
  const dict = parseDict(text);
  const descr = dict.get('descr');
  const fortran = dict.get('fortran_order');
  const shape = dict.get('shape');
  if (typeof descr !== 'string') throw new KprofFormatError(descr === undefined ? "The .npy header has no 'descr'" : 'The .npy array has a structured dtype (a list of fields); a profiler buffer is one uint64 per slot');
  if (typeof fortran !== 'boolean') throw new KprofFormatError("The .npy header has no 'fortran_order' True/False");
  if (!Array.isArray(shape)) throw new KprofFormatError("The .npy header has no 'shape' tuple");
  return { descr, fortranOrder: fortran, shape, dataOffset: start + len };
}

/**
 * A `.npy` holding a profiler buffer: dtype `<u8` or `<i8`, 1-D (one launch) or 2-D (one row per
 * launch). Anything else is refused with the reason; object arrays are pickles and never read.
 */
export function readNpy(bytes: Uint8Array): ProfBuffer[] {
  const h = readNpyHeader(bytes);
  checkWordDtype(h.descr);
  if (h.shape.length === 0) throw new KprofFormatError('The .npy array is a single number (0-D); a profiler buffer is 1-D, or 2-D with one row per launch');
  if (h.shape.length > 2) throw new KprofFormatError(`The .npy array is ${h.shape.length}-D (shape ${shapeText(h.shape)}); a profiler buffer is 1-D, or 2-D with one row per launch`);
  const launches = h.shape.length === 2 ? h.shape[0] : 1;
  const slots = h.shape[h.shape.length - 1];
  const count = launches * slots;
  const have = bytes.length - h.dataOffset;
  if (!Number.isFinite(count) || count * 8 > MAX_BUFFER_BYTES) {
    throw new KprofFormatError(`The .npy header claims ${count === Infinity ? 'over 2^53' : count} elements (shape ${shapeText(h.shape)}), over the ${MAX_BUFFER_BYTES / 8} read; the file holds ${Math.floor(have / 8)}`);
  }
  if (count * 8 > have) throw new KprofFormatError(`The .npy data is cut off: shape ${shapeText(h.shape)} needs ${count * 8} bytes, the file holds ${have}`);
  if (slots === 0 || launches === 0) throw new KprofFormatError(`The .npy array is empty (shape ${shapeText(h.shape)})`);
  const all = wordsFromBytes(bytes, h.dataOffset, count * 8);
  if (launches === 1) return [{ words: all, slots }];
  const out: ProfBuffer[] = [];
  for (let l = 0; l < launches; l++) {
    if (!h.fortranOrder) {
      out.push({ words: all.subarray(l * slots * 2, (l + 1) * slots * 2), slots });
      continue;
    }
    // Column-major: slot s of launch l is element s * launches + l.
    const w = new Uint32Array(slots * 2);
    for (let s = 0; s < slots; s++) {
      w[2 * s] = all[2 * (s * launches + l)];
      w[2 * s + 1] = all[2 * (s * launches + l) + 1];
    }
    out.push({ words: w, slots });
  }
  return out;
}

function checkWordDtype(descr: string): void {
  if (descr === '<u8' || descr === '<i8') return;
  if (descr === '|O' || descr === 'O' || descr.endsWith('O')) throw new KprofFormatError('The .npy array holds Python objects (pickled); it is refused, never unpickled: save the buffer as uint64');
  if (descr === '>u8' || descr === '>i8') throw new KprofFormatError(`The .npy array is big-endian (${descr}); save it little-endian (<u8) as numpy does on the GPU host`);
  throw new KprofFormatError(`The .npy dtype is ${JSON.stringify(descr.slice(0, 40))}; a profiler buffer is uint64 (<u8) or int64 (<i8)`);
}

export function shapeText(shape: number[]): string {
  return `(${shape.map((n) => (Number.isFinite(n) ? String(n) : 'huge')).join(', ')}${shape.length === 1 ? ',' : ''})`;
}

const OTHER = { other: true } as const;
type PyValue = string | boolean | number[] | null | typeof OTHER;

/** The header dict, read character by character (no regex over file text). Structured values become OTHER. */
function parseDict(text: string): Map<string, PyValue> {
  const out = new Map<string, PyValue>();
  let i = 0;
  const bad = (what: string): never => {
    throw new KprofFormatError(`The .npy header is not a valid dict (${what} at character ${i})`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\t' || text[i] === '\r')) i++;
  };
  const str = (): string => {
    const q = text[i];
    const end = text.indexOf(q, i + 1);
    if (end < 0) bad('an unterminated string');
    const s = text.slice(i + 1, end);
    i = end + 1;
    return s;
  };
  const value = (): PyValue => {
    ws();
    const c = text[i];
    if (c === "'" || c === '"') return str();
    if (text.startsWith('True', i)) { i += 4; return true; }
    if (text.startsWith('False', i)) { i += 5; return false; }
    if (text.startsWith('None', i)) { i += 4; return null; }
    if (c === '(') {
      i++;
      const dims: number[] = [];
      for (;;) {
        ws();
        if (text[i] === ')') { i++; return dims; }
        const d0 = i;
        while (i < text.length && text[i] >= '0' && text[i] <= '9') i++;
        if (i === d0) bad('a shape that is not a tuple of integers');
        // Past 15 digits a number is no longer exact; it is far too large anyway.
        dims.push(i - d0 > 15 ? Infinity : Number(text.slice(d0, i)));
        while (i < text.length && text[i] === 'L') i++;
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== ')') bad('a shape that is not a tuple of integers');
      }
    }
    if (c === '[' || c === '{') {
      // A structured dtype: skip the balanced brackets, strings included.
      let depth = 0;
      while (i < text.length) {
        const d = text[i];
        if (d === "'" || d === '"') { str(); continue; }
        if (d === '[' || d === '(' || d === '{') depth++;
        else if (d === ']' || d === ')' || d === '}') depth--;
        i++;
        if (depth === 0) return OTHER;
      }
      bad('unbalanced brackets');
    }
    return bad('an unexpected value');
  };
  ws();
  if (text[i] !== '{') bad('no opening brace');
  i++;
  for (;;) {
    ws();
    if (text[i] === '}') return out;
    if (text[i] !== "'" && text[i] !== '"') bad('a key that is not a string');
    const key = str();
    ws();
    if (text[i] !== ':') bad('no colon after a key');
    i++;
    out.set(key, value());
    ws();
    if (text[i] === ',') i++;
    else if (text[i] !== '}') bad('no comma between items');
  }
}
