import { useEffect, useRef, useState } from 'react';
import { clickedLink, htmlMessage, OUTPUT_FRAME_URL, reportedHeight } from './output-frame-messages';
import './html-output-frame.css';

const INITIAL_HEIGHT = 32;

/**
 * Every HTML output (live cells, saved conversations, notebook previews) renders through this: the
 * content runs its scripts in an isolated frame (opaque origin, its own CSP) that cannot reach the
 * app's DOM, storage, cookie or bridge. See docs/security.md.
 */
export function HtmlOutputFrame({
  html,
  scripts = true,
  policy,
  blockedNote = 'Scripts in a previewed notebook do not run; import it and re-run its cells to see them.',
  scriptNote = true,
}: {
  html: string;
  scripts?: boolean;
  /** A stricter policy for the content when its scripts run (an MCP server's UI: MCP_UI_POLICY). */
  policy?: string;
  /** Shown under content whose scripts were kept from running, saying how to see them. */
  blockedNote?: string;
  /** Whether to say under content with scripts where they run (off when the caller says it itself). */
  scriptNote?: boolean;
}) {
  // Other HTML gets a fresh frame: a frame the previous content navigated elsewhere is never handed it.
  // So does the same HTML when whether its scripts may run changes (an imported output run again).
  const [shown, setShown] = useState({ html, scripts, generation: 0 });
  if (shown.html !== html || shown.scripts !== scripts) setShown({ html, scripts, generation: shown.generation + 1 });
  return (
    <>
      <IsolatedFrame key={shown.generation} html={html} scripts={scripts} policy={policy} />
      {scriptNote && /<script\b/i.test(html) && (
        <p className="html-output-note">
          {scripts ? 'Scripts in this output run in an isolated frame, without access to the app.' : blockedNote}
        </p>
      )}
    </>
  );
}

function IsolatedFrame({ html, scripts, policy }: { html: string; scripts: boolean; policy: string | undefined }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const handedOver = useRef(false);
  const [height, setHeight] = useState(INITIAL_HEIGHT);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // Only this frame's window speaks here; its sibling outputs and the app's other frames do not.
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const reported = reportedHeight(event.data);
      if (reported !== null) setHeight(reported);
      // Only right after the user clicked in this frame: the click focused it and activated this page.
      // Content posting on its own gets neither (an activation from typing in the composer leaves the
      // focus there), so nothing opens.
      const link = clickedLink(event.data);
      if (link && document.activeElement === frame.current && navigator.userActivation.isActive)
        window.open(link, '_blank', 'noopener,noreferrer');
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  // Once, on the frame page's first load; later loads are the content's own (its document.write, or a
  // navigation it made), and must not receive anything. '*' because an opaque origin has no name.
  const handOver = () => {
    if (handedOver.current) return;
    handedOver.current = true;
    frame.current?.contentWindow?.postMessage(htmlMessage(html, scripts, policy), '*');
  };

  return (
    <iframe
      ref={frame}
      className="html-output-frame"
      data-testid="html-output"
      title="HTML output"
      sandbox="allow-scripts"
      src={OUTPUT_FRAME_URL}
      style={{ height }}
      onLoad={handOver}
    />
  );
}
