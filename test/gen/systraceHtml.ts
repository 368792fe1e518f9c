// A systrace as catapult's `systrace.py` writes it with `-o trace.html` (catapult
// systrace/systrace/prefix.html and output_generator.py, read at commit b28f11e5): an HTML page
// titled "Android System Trace" on its sixth line, the inlined trace viewer, then the atrace text
// in a `<script class="trace-data" type="application/text">` block that starts with a newline.
// Generated for the tests, not taken from a device; the viewer (megabytes of script) is a stand-in.

/** The page around `atrace` (the text `adb shell atrace` prints, `# tracer: nop` first). */
export function systraceHtml(atrace: string): string {
  return [
    '<!DOCTYPE HTML>',
    '<html>',
    '<head i18n-values="dir:textdirection;">',
    '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
    '<meta charset="utf-8"/>',
    '<title>Android System Trace</title>',
    '<style>html, body { height: 100%; }</style>',
    '<script>/* the trace viewer: tr.importer.Import(m).importTracesWithProgressDialog(traces) */</script>',
    '</head>',
    '<body>',
    '  <tr-ui-timeline-view></tr-ui-timeline-view>',
    '  <!-- BEGIN TRACE -->',
    '  <script class="trace-data" type="application/text">',
    atrace.replace(/\n$/, ''),
    '  </script>',
    '<!-- END TRACE -->',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
