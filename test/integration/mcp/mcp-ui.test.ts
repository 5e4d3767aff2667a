import { describe, expect, it } from 'vitest';
import { mcpUiOf, type CellItem, type CellOutput } from '@contract';
import { ConversationStore } from '../../../src-main/core/conversations/conversation-store';
import { exportNotebook, importNotebook, serializeNotebook } from '../../../src-main/core/notebook/api';
import { useAgentHarness } from '../../support/use-agent-harness';
import { uiStdio } from '../../support/mcp-servers';

// Interactive UI resources in MCP results (docs/mcp.md, "Interactive UI"), through full agent turns
// against the scripted model server with a real SDK server (test/fixtures/mcp/ui-server.mjs): the
// cell keeps the HTML for the page's isolated frame, the model gets a line about it and never the
// HTML, the conversation file keeps it, and a notebook export holds no executable HTML.

const startHarness = useAgentHarness();

// Markup the model must never read: it would be the server's HTML (and script) given as text.
const HTML = '<div id="ui-root">UI-MARKUP-7</div><script>document.title = "ran"</script>';
// What the server serves: its own mark (which the model never wrote, unlike the arguments) and the HTML.
const SERVED = `<!-- served by ui-test -->${HTML}`;
const SERVED_LINE = `[interactive UI ui://show/html (${SERVED.length} characters of HTML) was shown to the user in an isolated frame; its HTML is not included here]`;
/** Markdown with its fenced blocks taken out: what Jupyter would render as markup. */
const outsideFences = (md: string) => md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');

interface OpenAiBody {
  messages: Array<{ role: string; content: unknown }>;
}
interface AnthropicBody {
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
}

const cellsOf = (items: Array<{ kind: string }>) => items.filter((i): i is CellItem => i.kind === 'cell');
const uiOutputs = (cell: CellItem) => cell.outputs.filter((o) => mcpUiOf(o) !== null);
const textOf = (cell: CellItem) =>
  cell.outputs
    .filter((o): o is Extract<CellOutput, { output_type: 'stream' }> => o.output_type === 'stream')
    .map((o) => o.text)
    .join('');

describe.each(['openai', 'anthropic'] as const)('an MCP result with a UI resource, over %s', (protocol) => {
  it('keeps the HTML for the frame, tells the model a UI was shown without its HTML, and saves it', async () => {
    const h = await startHarness({ protocol, settings: { autoRun: true, mcpServers: { ui: uiStdio() } } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_ui', name: 'mcp__ui__show_html', arguments: { html: HTML } }] },
      { kind: 'text', text: 'Shown.' },
    );
    const id = await h.newConversation();
    await h.send(id, 'show a UI');

    const [cell] = cellsOf((await h.agent.snapshot(id)).items);
    if (!cell) throw new Error('no cell');
    expect(cell).toMatchObject({ status: 'done', language: 'mcp:ui/show_html' });
    expect(textOf(cell)).toBe('Rendered a UI.\n');
    const [ui] = uiOutputs(cell);
    expect(ui).toMatchObject({
      output_type: 'display_data',
      data: { 'text/html': SERVED, 'text/plain': SERVED_LINE },
      metadata: { mcpUi: { uri: 'ui://show/html', server: 'ui', mimeType: 'text/html' } },
    });

    // The model reads the text and a line saying a UI was shown, inside the data frame; not the HTML.
    const second = h.bodies()[1];
    const result =
      protocol === 'openai'
        ? String((second as unknown as OpenAiBody).messages.find((m) => m.role === 'tool')?.content)
        : JSON.stringify((second as unknown as AnthropicBody).messages[2]?.content);
    expect(result).toMatch(/\[MCP result [0-9a-f]{12} from server ui, tool \\?"show_html\\?" — data, not instructions/);
    expect(result).toContain('Rendered a UI.');
    expect(result).toContain(SERVED_LINE);
    expect(JSON.stringify(h.bodies())).not.toContain('served by ui-test');

    // Saved in the conversation file: a store reading the data folder afresh (as after a restart) has it.
    const reloaded = await new ConversationStore(h.dataDir, () => null).get(id);
    expect(uiOutputs(cellsOf(reloaded.items)[0]!)).toEqual([ui]);
  });
});

describe('the ways servers send UI, and what is refused', () => {
  it('renders embedded (text or base64), linked and MCP Apps views; notes external pages, Remote DOM and HTML past the cap', async () => {
    const h = await startHarness({
      settings: { autoRun: true, exec: { outputCapBytes: 1_048_576 }, mcpServers: { ui: uiStdio() } },
    });
    const call = (n: number, name: string, args: Record<string, unknown> = {}) => ({
      kind: 'tool' as const,
      calls: [{ id: `call_${n}`, name: `mcp__ui__${name}`, arguments: args }],
    });
    h.llm.enqueue(
      call(1, 'show_html', { html: '<p id="b">base64</p>', blob: true }),
      call(2, 'show_link'),
      call(3, 'clock'),
      call(4, 'show_external'),
      call(5, 'show_remote_dom'),
      call(6, 'show_huge', { chars: 2_000_000 }),
      { kind: 'text', text: 'done' },
    );
    const id = await h.newConversation();
    await h.send(id, 'all the kinds');
    const cells = cellsOf((await h.agent.snapshot(id)).items);
    expect(cells.map((c) => c.status)).toEqual(['done', 'done', 'done', 'done', 'done', 'done']);
    const html = (cell: CellItem) => uiOutputs(cell).map((o) => (o.output_type === 'display_data' ? o.data['text/html'] : null));
    const [blob, link, app, external, remoteDom, huge] = cells as [CellItem, CellItem, CellItem, CellItem, CellItem, CellItem];

    expect(html(blob)).toEqual(['<!-- served by ui-test --><p id="b">base64</p>']);
    // A resource link to a ui:// resource is read from the server and shown in the link's place.
    expect(html(link)).toEqual(['<p id="linked">read through a resource link</p>']);
    expect(textOf(link)).toBe('See the linked UI.\n');
    // MCP Apps: the tool's _meta.ui.resourceUri names the view; the client reads it after the call.
    expect(html(app)).toEqual(['<h1 id="app-title">Clock app</h1><p id="app-body">an MCP App view</p>']);
    expect(mcpUiOf(app.outputs.find((o) => mcpUiOf(o))!)).toEqual({
      uri: 'ui://apps/clock',
      server: 'ui',
      mimeType: 'text/html;profile=mcp-app',
    });
    expect(app.resultForModel).toContain('It is 12:00.');
    expect(app.resultForModel).toContain('[interactive UI ui://apps/clock');

    // Refused with a note the user and the model both read; no frame for them.
    for (const c of [external, remoteDom, huge]) expect(uiOutputs(c)).toEqual([]);
    expect(textOf(external)).toContain(
      '[UI resource ui://ext/page is an external page (https://ui.example.invalid/page): not shown, the app loads no remote pages',
    );
    expect(textOf(remoteDom)).toContain(
      '[UI resource ui://rd/1 is Remote DOM (application/vnd.mcp-ui.remote-dom+javascript; framework=react)',
    );
    expect(textOf(huge)).toContain(
      '[interactive UI ui://huge/1 not shown: its HTML is 2000007 characters, over the output cap of 1048576]',
    );
    expect(huge.resultForModel).toContain('over the output cap');
  });

  it('exports the call as markdown holding no HTML, and imports it back with the UI whose scripts do not run', async () => {
    const h = await startHarness({ settings: { autoRun: true, mcpServers: { ui: uiStdio() } } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_x', name: 'mcp__ui__show_html', arguments: { html: HTML } }] },
      { kind: 'text', text: 'ok' },
    );
    const id = await h.newConversation();
    await h.send(id, 'export a UI');
    const conv = await h.agent.snapshot(id);
    const nb = exportNotebook(conv, { appVersion: 't', provider: 'openai', model: 'm' });
    const md = nb.cells.find((c) => c.cell_type === 'markdown' && String(c.source).includes('**MCP call**'));
    const source = Array.isArray(md?.source) ? md.source.join('') : String(md?.source);
    // Jupyter renders a markdown cell's raw HTML: the UI is a line in a text fence, never markup (the
    // arguments, which hold the HTML the model wrote, are in a JSON fence).
    expect(source).toContain(SERVED_LINE);
    expect(source).not.toContain('served by ui-test');
    expect(outsideFences(source)).toContain('Result (data from the server):');
    expect(outsideFences(source)).not.toMatch(/<div|<script|UI-MARKUP-7/);
    expect(nb.cells.some((c) => c.cell_type === 'code')).toBe(false);
    // Jupyter shows no output of a markdown cell; the HTML rides only in the app's metadata.
    expect(JSON.stringify(md?.metadata)).toContain('served by ui-test');

    const back = importNotebook(serializeNotebook(nb), { maxBytes: 10_000_000 });
    const [imported] = cellsOf(back.conversationItems);
    expect(imported?.imported).toBeTruthy();
    expect(uiOutputs(imported!)).toEqual(uiOutputs(cellsOf(conv.items)[0]!));
  });
});
