import type { McpUiOutputMeta } from '@contract';
import { HtmlOutputFrame } from './HtmlOutputFrame';
import { MCP_UI_POLICY } from './output-frame-messages';
import './mcp-ui-output.css';

/**
 * An MCP server's interactive UI (docs/mcp.md, "Interactive UI"): its HTML in the same isolated frame
 * as the HTML outputs of code (opaque origin, its own CSP), with a policy on top that lets it load
 * nothing from the network. Whatever the UI posts to ask for a tool call or a prompt is not listened
 * to: only the frame's height and a clicked link are (HtmlOutputFrame), so a UI can never act for the user.
 */
export function McpUiOutput({ html, ui, scripts }: { html: string; ui: McpUiOutputMeta; scripts: boolean }) {
  return (
    <div className="mcp-ui" data-testid="mcp-ui" data-uri={ui.uri}>
      <div className="mcp-ui-head">
        Interactive UI from MCP server <code>{ui.server}</code> · <code>{ui.uri}</code>
      </div>
      <HtmlOutputFrame
        html={html}
        scripts={scripts}
        policy={MCP_UI_POLICY}
        scriptNote={false}
        blockedNote="Scripts in an MCP UI imported from a notebook do not run; run the call again to see it."
      />
      {scripts && (
        <p className="html-output-note mcp-ui-note">
          Runs in an isolated frame: no network, no access to the app. Its buttons cannot call tools or send messages here.
        </p>
      )}
    </div>
  );
}
