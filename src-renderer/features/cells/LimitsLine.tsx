import type { RunLimits } from '@contract';
import { formatDuration } from '../common/use-now';

/** The limits a run had, so nobody wonders why it was stopped. */
export function LimitsLine({ limits }: { limits: RunLimits }) {
  const parts = [`timeout ${formatDuration(limits.timeoutMs)}`];
  if (limits.memoryMb !== null) parts.push(`memory ${limits.memoryMb} MB`);
  if (limits.cpuSeconds !== null) parts.push(`CPU ${limits.cpuSeconds} s`);
  if (limits.maxProcesses !== null) parts.push(`processes ${limits.maxProcesses}`);
  parts.push(limits.sandbox ? `sandbox ${limits.sandbox}` : 'no sandbox');
  return (
    <footer className="cell-limits" data-testid="cell-limits">
      limits: {parts.join(' · ')}
    </footer>
  );
}
