/**
 * Hands a timeline model to the bench's page as the extension does: the typed-array columns as
 * binary, never as a serialized JS copy. page.evaluate can only carry JSON (the columns as base64
 * strings, then decoded in the page): at 10M events that copy is gigabytes of strings and Chromium
 * closed the page. Here each column's bytes are served by an HTTP server bound to 127.0.0.1; the page
 * fetch()es them into ArrayBuffers and rebuilds the same `model` message the host posts (same type,
 * same shape), which its own message handler then receives through window.postMessage.
 * The page must be opened with `bypassCSP`: the timeline's CSP (default-src 'none') forbids fetch.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TimelineModel } from '../core/timeline/model';
import type { TimelinePage } from '../test/webview/page';

/** A typed array, in the skeleton the page receives: where to fetch its bytes and its constructor. */
interface ColumnRef {
  __col: string;
  type: string;
}

export class ColumnServer {
  private next = 0;

  private constructor(private readonly server: Server, readonly origin: string, private readonly cols: Map<string, Buffer>) {}

  static async start(): Promise<ColumnServer> {
    const cols = new Map<string, Buffer>();
    const server = createServer((req, res) => {
      const buf = cols.get((req.url ?? '').replace(/^\/c\//, ''));
      if (req.method !== 'GET' || !buf) {
        res.writeHead(404).end();
        return;
      }
      // The page is a file: URL (origin "null"): a cross-origin fetch that needs this header.
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': buf.byteLength, 'access-control-allow-origin': '*' });
      res.end(buf);
    });
    await new Promise<void>((res, rej) => server.once('error', rej).listen(0, '127.0.0.1', res));
    return new ColumnServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, cols);
  }

  /** `v` with every typed array replaced by a reference to its bytes (no copy: a view of the same memory). */
  skeleton(v: unknown): unknown {
    if (ArrayBuffer.isView(v)) {
      const id = String(this.next++);
      this.cols.set(id, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      return { __col: id, type: v.constructor.name } satisfies ColumnRef;
    }
    if (Array.isArray(v)) return v.map((x) => this.skeleton(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, this.skeleton(x)]));
    return v;
  }

  /** Forgets the served columns (the node side's model can then be collected). */
  clear(): void {
    this.cols.clear();
  }

  close(): Promise<void> {
    this.cols.clear();
    return new Promise((res) => this.server.close(() => res()));
  }
}

/**
 * Puts the host's `model` message for `m` in the page as `window.__pending`, its columns fetched
 * into ArrayBuffers, ready to be posted (the caller times the post). Returns the fetch time.
 */
export async function stageModel(q: TimelinePage, server: ColumnServer, m: TimelineModel, fileName: string, complete: boolean): Promise<number> {
  const skel = server.skeleton({ type: 'model', uri: `file:///${fileName}`, fileName, model: m, complete });
  const ms = (await q.page.evaluate(async ({ skel, origin }) => {
    const t = performance.now();
    const rebuild = async (v: unknown): Promise<unknown> => {
      if (Array.isArray(v)) {
        const out: unknown[] = [];
        for (const x of v) out.push(await rebuild(x));
        return out;
      }
      if (v && typeof v === 'object') {
        const ref = v as { __col?: unknown; type?: string };
        if (typeof ref.__col === 'string') {
          const r = await fetch(`${origin}/c/${ref.__col}`);
          if (!r.ok) throw new Error(`column ${ref.__col}: HTTP ${r.status}`);
          const Ctor = (globalThis as unknown as Record<string, new (b: ArrayBuffer) => unknown>)[ref.type!];
          return new Ctor(await r.arrayBuffer());
        }
        const o: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) o[k] = await rebuild(x);
        return o;
      }
      return v;
    };
    (window as unknown as { __pending: unknown }).__pending = await rebuild(skel);
    return performance.now() - t;
  }, { skel: skel as never, origin: server.origin })) as number;
  server.clear();
  return ms;
}

/**
 * Posts the staged message to the page's own handler and resolves with the time from the post to
 * the end of the first frame drawn with it. The post is a structured clone of the message (the
 * VS Code hop cannot run here; the page's own clone stands in for it).
 */
export async function postStaged(q: TimelinePage): Promise<number> {
  // A string: tsx would wrap a named function in a helper the page does not have.
  return (await q.page.evaluate(`new Promise((r) => {
    const t = performance.now();
    window.__timeline.perf.firstPaint = 0;
    window.postMessage(window.__pending, '*');
    window.__pending = undefined;
    const poll = () => (window.__timeline.perf.firstPaint ? r(window.__timeline.perf.firstPaint - t) : requestAnimationFrame(poll));
    requestAnimationFrame(poll);
  })`)) as number;
}
