import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpUiOf } from '@contract';
import { uiOutput } from '../../../src-main/core/agent/mcp-cell';
import { TextPrinter } from '../../../src-main/cli/text-printer';
import { styleFor } from '../../../src-main/cli/terminal-style';
import { uiContentOf, uiResourceUriOf } from '../../../src-main/core/mcp/mcp-ui-resource';
import { htmlMessage, MCP_UI_POLICY, NO_SCRIPTS_POLICY } from '../../../src-renderer/features/cells/output-frame-messages';

// Which ui:// resources become a UI in the output frame, which are refused with a note, and what the
// cell, the model and the terminal get for one (docs/mcp.md, "Interactive UI").

describe('UI resources in MCP results', () => {
  it('takes ui:// HTML as text, base64 or untyped, in MCP-UI and MCP Apps types', () => {
    expect(uiContentOf({ uri: 'ui://a/1', mimeType: 'text/html', text: '<p>x</p>' })).toEqual({
      type: 'ui',
      uri: 'ui://a/1',
      mimeType: 'text/html',
      html: '<p>x</p>',
    });
    expect(
      uiContentOf({ uri: 'ui://a/2', mimeType: 'text/html;profile=mcp-app', blob: Buffer.from('<p>é</p>').toString('base64') }),
    ).toMatchObject({
      type: 'ui',
      html: '<p>é</p>',
    });
    expect(uiContentOf({ uri: 'ui://a/3', text: '<p>untyped</p>' })).toMatchObject({ type: 'ui', mimeType: 'text/html' });
  });

  it('refuses external pages and Remote DOM with a note, and leaves other resources alone', () => {
    expect(uiContentOf({ uri: 'ui://e/1', mimeType: 'text/uri-list', text: '# comment\nhttps://x.example/app\n' })).toEqual({
      type: 'other',
      text: '[UI resource ui://e/1 is an external page (https://x.example/app): not shown, the app loads no remote pages into conversations]',
    });
    expect(
      uiContentOf({ uri: 'ui://r/1', mimeType: 'application/vnd.mcp-ui.remote-dom+javascript; framework=react', text: 'x' }),
    ).toMatchObject({
      type: 'other',
      text: expect.stringContaining('is Remote DOM'),
    });
    expect(uiContentOf({ uri: 'ui://a/1', mimeType: 'text/html' })).toEqual({
      type: 'other',
      text: '[UI resource ui://a/1 has no content]',
    });
    // Not ui://, or not HTML: an ordinary resource.
    expect(uiContentOf({ uri: 'file:///a.html', mimeType: 'text/html', text: '<p>x</p>' })).toBeNull();
    expect(uiContentOf({ uri: 'ui://a/1', mimeType: 'application/json', text: '{}' })).toBeNull();
  });

  it("reads the view a tool's _meta names (MCP Apps), nested or flat, only as ui://", () => {
    expect(uiResourceUriOf({ ui: { resourceUri: 'ui://apps/clock' } })).toBe('ui://apps/clock');
    expect(uiResourceUriOf({ 'ui/resourceUri': 'ui://apps/old' })).toBe('ui://apps/old');
    expect(uiResourceUriOf({ ui: { resourceUri: 'https://evil.example/' } })).toBeUndefined();
    expect(uiResourceUriOf(undefined)).toBeUndefined();
  });

  it('gives the cell the HTML marked as MCP UI and the model a line instead; past the cap, only the line', () => {
    const shown = uiOutput({ uri: 'ui://a/1\u001b[2J', mimeType: 'text/html', html: '<p>x</p>' }, 'srv', 100);
    expect(shown.forModel).toBe(
      '[interactive UI ui://a/1 [2J (8 characters of HTML) was shown to the user in an isolated frame; its HTML is not included here]',
    );
    expect(shown.output && mcpUiOf(shown.output)).toEqual({ uri: 'ui://a/1 [2J', server: 'srv', mimeType: 'text/html' });
    expect(shown.output).toMatchObject({ data: { 'text/html': '<p>x</p>', 'text/plain': shown.forModel } });
    const big = uiOutput({ uri: 'ui://a/1', mimeType: 'text/html', html: 'x'.repeat(101) }, 'srv', 100);
    expect(big).toEqual({
      output: null,
      forModel: '[interactive UI ui://a/1 not shown: its HTML is 101 characters, over the output cap of 100]',
    });
    // Metadata of another shape is no MCP UI.
    expect(mcpUiOf({ output_type: 'display_data', metadata: { mcpUi: { uri: 1 } } })).toBeNull();
    expect(mcpUiOf({ output_type: 'execute_result', metadata: { mcpUi: { uri: 'u', server: 's', mimeType: 'm' } } })).toBeNull();
  });

  it('sends the frame the stricter policy while scripts run, and the no-scripts one otherwise', () => {
    expect(htmlMessage('<b>x</b>', true, MCP_UI_POLICY)).toEqual({ type: 'oi-output-html', html: '<b>x</b>', policy: MCP_UI_POLICY });
    expect(htmlMessage('<b>x</b>', false, MCP_UI_POLICY)).toEqual({ type: 'oi-output-html', html: '<b>x</b>', policy: NO_SCRIPTS_POLICY });
    // No network source anywhere in it: every fetch directive is data:/blob:/inline or none.
    expect(MCP_UI_POLICY).not.toMatch(/https?:|\*|'self'/);
    expect(MCP_UI_POLICY).toContain("connect-src 'none'");
  });

  it('the terminal prints the line and saves no page to open in a browser', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-mcpui-'));
    try {
      let out = '';
      const printer = new TextPrinter((t) => (out += t), styleFor({ isTTY: false }, {}), { outputDir: dir });
      const { output } = uiOutput({ uri: 'ui://a/1', mimeType: 'text/html', html: '<p>x</p>' }, 'srv', 100);
      printer.handle({ name: 'cell.output', payload: { conversationId: 'c1', cellId: 'k1', output: output! } });
      expect(out).toContain('[interactive UI ui://a/1 (8 characters of HTML) was shown');
      expect(out).toContain('open the conversation in the desktop app to see it');
      expect(readdirSync(dir)).toEqual([]);
      // The twin: the same HTML without the mark is saved as a page.
      printer.handle({
        name: 'cell.output',
        payload: {
          conversationId: 'c1',
          cellId: 'k2',
          output: { output_type: 'display_data', data: { 'text/html': '<p>x</p>' }, metadata: {} },
        },
      });
      expect(readdirSync(path.join(dir, 'c1'))).toEqual(['k2-1.html']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
