import './thinking.css';

/**
 * The model's extended thinking above its answer: collapsed by default under a muted line, growing live
 * while it streams, opened by the user. Plain text, not markdown: it is a draft, not an answer.
 */
export function ThinkingBlock({ texts, streaming }: { texts: string[]; streaming: boolean }) {
  if (texts.length === 0) return null;
  return (
    <details className="thinking" data-testid="thinking" data-streaming={streaming}>
      <summary>{streaming ? 'Thinking…' : 'Thinking'}</summary>
      <div className="thinking-text">
        {texts.map((text, i) => (
          <p key={i}>{text}</p>
        ))}
      </div>
    </details>
  );
}
