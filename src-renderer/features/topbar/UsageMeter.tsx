import { useApp } from '../../state/app-store';

/** Tokens and cost of the open conversation, and how full the context window was at the last call. */
export function UsageMeter() {
  const usage = useApp((s) => s.current?.conv.usage);
  const context = useApp((s) => s.current?.context ?? null);
  if (!usage) return null;
  const tokens = usage.inputTokens + usage.outputTokens;
  const fill = context ? Math.min(100, Math.round((context.tokens / context.window) * 100)) : null;
  return (
    <span
      className="usage"
      data-testid="usage"
      title={`${usage.inputTokens.toLocaleString()} tokens in, ${usage.outputTokens.toLocaleString()} out${context ? `; context ${context.tokens.toLocaleString()} of ${context.window.toLocaleString()}` : ''}`}
    >
      {/* Whole parts, most wanted first: the cost, the tokens, the context's fill. Those that do not fit wrap
          onto a second line the meter does not show (layout.css), so a number is never cut in half. */}
      <span className="usage-part">${usage.costUsd > 0 && usage.costUsd < 0.01 ? '<0.01' : usage.costUsd.toFixed(2)}</span>
      <span className="usage-part"> · {formatTokens(tokens)} tokens</span>
      {fill !== null && <span className="usage-part"> · context {fill}%</span>}
    </span>
  );
}

function formatTokens(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k` : n.toLocaleString();
}
