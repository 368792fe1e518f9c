/** How much of a file detection looks at: PyTorch writes a few KB of device properties before `traceEvents`. */
export const HEAD_BYTES = 1 << 20;

/**
 * The start of a file as detection sees it: up to its first MB (gunzipped for a `.gz`), as text
 * without a BOM, and its bytes where the reader has them (a binary format is told by its magic).
 * The first line is computed once, when a detector first asks.
 */
export class FileHead {
  readonly text: string;
  readonly bytes: Uint8Array | undefined;
  private first: string | undefined;

  /** Longer input is cut to `HEAD_BYTES`. */
  constructor(text = '', bytes?: Uint8Array) {
    this.text = stripBom(text.length > HEAD_BYTES ? text.slice(0, HEAD_BYTES) : text);
    this.bytes = bytes && bytes.length > HEAD_BYTES ? bytes.subarray(0, HEAD_BYTES) : bytes;
  }

  /** The first line, without its terminator. */
  get firstLine(): string {
    if (this.first === undefined) {
      const t = this.text;
      const nl = t.search(/\r?\n|\r/);
      this.first = nl < 0 ? t : t.slice(0, nl);
    }
    return this.first;
  }
}

const stripBom = (s: string) => (s.charCodeAt(0) === 0xfeff ? s.slice(1) : s);

/** The base name of a path or URI (both separators), as names are matched. */
export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

const globCache = new Map<string, RegExp>();

/** Whether a base name matches a glob of `*`s (the only wildcard format names use), ignoring case. */
export function nameMatches(glob: string, name: string): boolean {
  let re = globCache.get(glob);
  if (!re) {
    // `*` never crosses a separator and the rest is literal: one `[^/]*` per star keeps the match linear for these short globs.
    re = new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/\\\\]*')}$`, 'i');
    globCache.set(glob, re);
  }
  return re.test(name);
}

/** The editor languages a JSON file opens in before content detection switches it. */
export const JSON_LANGUAGES: readonly string[] = ['json', 'jsonc'];

/**
 * Whether a name leaves a file to be told by its JSON content: `.json`, `.jsonc`, gzipped JSON, a
 * plain `.gz` (HTA and JAX gzip their traces) or an untitled editor document.
 */
export function jsonNamed(name: string): boolean {
  return /\.(?:jsonc?|json\.gz|gz)$/i.test(name) || /^untitled/i.test(name);
}
