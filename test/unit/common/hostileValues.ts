// Values a hostile or unlucky file puts in a string field: Markdown that would forge headings,
// tables, links and images, HTML, autolinks, entities and line separators. Every test that shows
// file text in Markdown renders these.
export const HOSTILE_VALUES = [
  'LN1\n# Build FAILED, see [details](https://evil.example/x)',
  '![pixel](https://evil.example/track.png)',
  'a | b |\n|---|---|\n| forged | row |',
  '<img src=https://evil.example/i.png>',
  '<script>alert(1)</script>',
  'https://evil.example/auto www.evil.example',
  '**bold** _em_ ~~strike~~ `code`',
  '``` fence\n# heading',
  '[ref]: https://evil.example/ref',
  'x\r\n===\r\n',
  '&lt;entity&gt; &#x41;',
  '\u2028# after a line separator',
];
