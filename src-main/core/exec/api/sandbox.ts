// The sandbox group of the engine's way in (`Sandbox.…` from core/exec): the setting applied to every
// run the app makes, the sandbox as the settings page describes it, one-off sandboxed programs (a
// workspace's hooks, hosted agents), the network's allow-list and where sandboxed code can write —
// what the app must never follow from outside it.
export { withReadableFolder, withSandboxSetting, withSealedFolder } from '../sandbox/sandbox-policy';
export { describeSandbox } from '../sandbox/describe-sandbox';
export { autoRunWarning, sandboxGaps, sandboxProtections } from '../sandbox/sandbox-gaps';
export { sandboxSupport, type SandboxSupport } from '../sandbox/sandbox-support';
export { oneOffSandbox } from '../sandbox/sandbox-wrap';
export { effectiveSandbox, withSandboxDefault } from '../sandbox/sandbox-default';
export { hostListed, normalHost, REGISTRY_HOSTS } from '../sandbox/network-hosts';
export { LOOPBACK_NAMES } from '../sandbox/network-relay';
export { startNetworkProxy, type NetworkPolicy, type NetworkProxy, type NetworkVerdict } from '../sandbox/network-proxy';
export { connectPumped } from '../sandbox/socket-pump';
export { reachesInto, writableZones } from '../sandbox/writable-zones';
export { parseExtraPath } from '../sandbox/sandbox-plan';
