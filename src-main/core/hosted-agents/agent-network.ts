import { Sandbox } from '../exec';

// Where a hosted agent's own process may connect when it runs in the sandbox (docs/acp.md#hosting):
// its provider, and nothing else the person did not allow. The sandbox gives it no network of its own;
// the app's proxy (exec/sandbox/network-proxy.ts) is its only way out, and decides each connection here.
// Its provider is every http(s) URL among the variables the person set for it (a base URL such as
// ANTHROPIC_BASE_URL), by host and port, plus the public API host of the provider whose key it is
// given (`key`). The package registries (an agent started through npx) and the sandbox's allowed hosts
// go through as they do for cells. Nobody is asked about other hosts: the agent is not a cell the
// person watches, and what it sends is its own.

/** The public API of each provider whose key an agent can be given. */
const PROVIDER_HOSTS: Record<'anthropic' | 'openai', string> = { anthropic: 'api.anthropic.com', openai: 'api.openai.com' };

export interface AgentEndpoint {
  host: string;
  port: number;
}

export interface AgentNetworkSpec {
  env: Record<string, string>;
  key: 'anthropic' | 'openai' | null;
}

/** The agent's provider endpoints: the URLs in its variables, and its key's provider. */
export function agentEndpoints(spec: AgentNetworkSpec): AgentEndpoint[] {
  const found: AgentEndpoint[] = [];
  for (const value of Object.values(spec.env)) {
    const url = parseUrl(value.trim());
    if (!url) continue;
    found.push({ host: Sandbox.normalHost(url.hostname), port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 });
  }
  if (spec.key) found.push({ host: PROVIDER_HOSTS[spec.key], port: 443 });
  return found.filter((e, i) => found.findIndex((o) => o.host === e.host && o.port === e.port) === i);
}

/**
 * The proxy's policy for the agent. A provider endpoint may be on this machine (a local model server
 * the person named), so it is allowed as listed; another port of the same host is not the provider.
 */
export function agentNetworkPolicy(
  agent: string,
  endpoints: readonly AgentEndpoint[],
  allowedHosts: () => readonly string[],
): Sandbox.NetworkPolicy {
  return (host, port) => {
    const name = Sandbox.normalHost(host);
    if (endpoints.some((e) => e.host === name && e.port === port)) return Promise.resolve({ allow: true, mayBeLocal: true });
    if (Sandbox.hostListed(name, allowedHosts())) return Promise.resolve({ allow: true, mayBeLocal: true });
    if (Sandbox.hostListed(name, Sandbox.REGISTRY_HOSTS)) return Promise.resolve({ allow: true, mayBeLocal: false });
    const provider = endpoints.length > 0 ? endpoints.map((e) => `${e.host}:${e.port}`).join(', ') : 'none set';
    return Promise.resolve({
      allow: false,
      reason: `the agent "${agent}" may reach only its provider (${provider}), the package registries and the sandbox's allowed hosts; ${name}:${port} is none of them`,
    });
  };
}

/**
 * NO_PROXY for the agent: the loopback names, less those its provider is at. Inside the sandbox the
 * loopback is the sandbox's own, so a provider on this machine is reached through the proxy or not at all.
 */
export function agentProxyBypass(endpoints: readonly AgentEndpoint[]): string[] {
  return Sandbox.LOOPBACK_NAMES.filter((name) => !endpoints.some((e) => e.host === name));
}

function parseUrl(value: string): URL | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
