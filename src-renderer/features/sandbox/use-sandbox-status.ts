import { useEffect, useState } from 'react';
import type { SandboxStatus } from '@contract';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

// main's sandbox.status for the current sandbox settings, shared by the chip, the auto-run chip and the
// confirmation: asked once per distinct setting (main probes the tool once per run anyway).
const asked = new Map<string, Promise<SandboxStatus>>();

function statusFor(key: string): Promise<SandboxStatus> {
  let found = asked.get(key);
  if (!found) {
    found = bridge['sandbox.status']({});
    asked.set(key, found);
    found.catch(() => asked.delete(key));
  }
  return found;
}

/** null until main answers (or when it could not). */
export function useSandboxStatus(): SandboxStatus | null {
  const sandbox = useApp((s) => s.settings?.sandbox);
  const key = sandbox ? JSON.stringify(sandbox) : null;
  const [answer, setAnswer] = useState<{ key: string; status: SandboxStatus } | null>(null);
  useEffect(() => {
    if (!key) return;
    let current = true;
    statusFor(key).then(
      (status) => current && setAnswer({ key, status }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [key]);
  return answer?.key === key ? answer.status : null;
}
