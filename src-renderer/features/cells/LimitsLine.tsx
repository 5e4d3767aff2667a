import type { RunLimits } from '@contract';
import { formatDuration } from '../common/use-now';
import { locationHost } from '../kernels/server-host';

/** The limits a run had, so nobody wonders why it was stopped. */
export function LimitsLine({ limits }: { limits: RunLimits }) {
  const parts = [`timeout ${formatDuration(limits.timeoutMs)}`];
  if (limits.memoryMb !== null) parts.push(`memory ${limits.memoryMb} MB`);
  if (limits.cpuSeconds !== null) parts.push(`CPU ${limits.cpuSeconds} s`);
  if (limits.maxProcesses !== null) parts.push(`processes ${limits.maxProcesses}`);
  // A remote kernel has no local sandbox: its server's own isolation holds there, so say where instead.
  if (limits.location) parts.push(`ran on ${locationHost(limits.location) ?? limits.location}`);
  else parts.push(limits.sandbox ? `sandbox ${limits.sandbox}` : 'no sandbox');
  return (
    <footer className="cell-limits" data-testid="cell-limits" title={limits.location ?? undefined}>
      limits: {parts.join(' · ')}
    </footer>
  );
}
