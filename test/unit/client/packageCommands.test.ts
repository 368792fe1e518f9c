import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';

interface Command { command: string; title: string; category?: string; icon?: unknown; enablement?: string }
interface MenuItem { command: string; when?: string }
const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { commands: Command[]; menus: Record<string, MenuItem[]> };
};
const { commands, menus } = pkg.contributes;

// Command hygiene (issue #19): every command is findable by its category, shows as an icon where it
// sits in a title bar, and is offered in the palette only where it works.
describe('package.json commands', () => {
  it('every command has a category, and its title does not repeat it', () => {
    for (const c of commands) {
      assert.ok(c.category?.trim(), `${c.command} has no category`);
      assert.ok(!c.title.startsWith(`${c.category}:`), `${c.command}: "${c.title}" repeats its category`);
    }
  });

  it('every command placed in a title bar has an icon', () => {
    for (const [menu, items] of Object.entries(menus)) {
      if (!menu.endsWith('/title')) continue;
      for (const item of items) {
        const c = commands.find((x) => x.command === item.command);
        assert.ok(c?.icon, `${item.command} in ${menu} has no icon`);
      }
    }
  });

  it('every command is limited in the palette by a when clause or an enablement', () => {
    const palette = menus.commandPalette ?? [];
    for (const c of commands) {
      const entry = palette.find((p) => p.command === c.command);
      assert.ok(entry?.when?.trim() || c.enablement?.trim(), `${c.command} shows in the palette everywhere`);
    }
  });

  it('every menu names a declared command', () => {
    const declared = new Set(commands.map((c) => c.command));
    for (const [menu, items] of Object.entries(menus)) for (const item of items) assert.ok(declared.has(item.command), `${menu}: ${item.command}`);
  });
});
