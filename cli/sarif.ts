import { resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Range, Severity } from '../core/common/diagnostic';
import { escapeControl } from '../core/common/escape';
import { RULES, type RuleDoc } from './sarifRules';

/** What `npu-trace check` found in one file. */
export interface FileResult {
  file: string;
  diagnostics: Diagnostic[];
  hasError: boolean;
}

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The base the artifact URIs are relative to: the directory the CLI ran in. */
const BASE_ID = 'SRCROOT';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

/**
 * Message text as SARIF reads it: `[text](id)` is an embedded link (§3.11.6), so a trace's own
 * brackets are escaped with a backslash; controls are made visible as in the text output.
 */
const messageText = (s: string) => escapeControl(s).replace(/\\(?=[[\]])|[[\]]/g, '\\$&');

/** SARIF lines and columns are 1-based, with the end column just past the region: our 0-based LSP range plus one. */
function region(r: Range) {
  return { startLine: r.start.line + 1, startColumn: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/** A file's URI relative to the base when it is under it (`traces/a%20b.trace.jsonl`), else absolute. */
function artifactLocation(file: string, baseHref: string): { uri: string; uriBaseId?: string } {
  const href = pathToFileURL(resolve(file)).href;
  return href.startsWith(baseHref) ? { uri: href.slice(baseHref.length), uriBaseId: BASE_ID } : { uri: href };
}


/** An unreadable file or unknown file type, as the run's notification. */
export interface RunFailure {
  file: string;
  message: string;
}

/**
 * One SARIF 2.1.0 log with one run: the rules (every rule `check` has, unless the command has its
 * own: `diff`), and a result per diagnostic.
 */
export function sarifLog(results: readonly FileResult[], failures: readonly RunFailure[], cwd = process.cwd(), ruleDocs: readonly RuleDoc[] = RULES): object {
  const baseHref = pathToFileURL(cwd.endsWith(sep) ? cwd : cwd + sep).href;
  const ruleIndex = new Map(ruleDocs.map((r, i) => [r.id, i]));
  const rules = ruleDocs.map((r) => ({
    id: r.id,
    shortDescription: { text: r.short },
    fullDescription: { text: r.helpText },
    help: { text: r.helpText, markdown: r.helpMarkdown },
    defaultConfiguration: { level: LEVEL[r.severity] },
  }));
  const out = [];
  for (const f of results) {
    const artifact = artifactLocation(f.file, baseHref);
    for (const d of f.diagnostics) {
      const index = ruleIndex.get(d.code);
      out.push({
        ruleId: d.code,
        ...(index === undefined ? {} : { ruleIndex: index }),
        level: LEVEL[d.severity],
        message: { text: messageText(d.message) },
        locations: [{ physicalLocation: { artifactLocation: artifact, region: region(d.range) } }],
        ...(d.related?.length
          ? { relatedLocations: d.related.map((x, i) => ({ id: i + 1, physicalLocation: { artifactLocation: artifact, region: region(x.range) }, message: { text: messageText(x.message) } })) }
          : {}),
      });
    }
  }
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'npu-trace', rules } },
      invocations: [{
        executionSuccessful: failures.length === 0,
        ...(failures.length
          ? { toolExecutionNotifications: failures.map((x) => ({ level: 'error', message: { text: messageText(x.message) }, locations: [{ physicalLocation: { artifactLocation: artifactLocation(x.file, baseHref) } }] })) }
          : {}),
      }],
      originalUriBaseIds: { [BASE_ID]: { uri: baseHref } },
      columnKind: 'utf16CodeUnits',
      results: out,
    }],
  };
}
