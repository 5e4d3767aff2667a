import type { Mutation } from './mutation';

// The mutations of issue 24 (items 1–5): the app's own programs resolved to system folders, the
// credential broker, the copy button's nonce, the browser-mode WebSocket Host check, the approval gate,
// the approval endpoint's checks, the MCP "ask" default, the sandbox on by default and its network
// proxy (local addresses refused, other hosts asked about). Each is caught by an assertion of the test
// named, within seconds; none by a test's time-out (issue 36).

const ATTACKS = 'test/security/attacks';
const BROKER = 'src-main/core/llm/provider-factory.ts';
const ENDPOINT = 'src-main/core/mcp-approval/approval-endpoint.ts';
const ENDPOINT_TEST = `${ATTACKS}/mcp-approval-endpoint.test.ts`;
const SANDBOX_DEFAULT_TEST = 'test/integration/sandbox/sandbox-default.test.ts';

export const ISSUE_24_MUTATIONS: Mutation[] = [
  {
    name: 'app-programs-system-dirs',
    protection: "the app's programs taken from system folders only, never a relative or workspace PATH entry",
    file: 'src-main/core/programs/app-programs.ts',
    find: 'const dirs = [...SYSTEM_DIRS, ...path.split(delimiter).filter((d) => d && isAbsolute(d) && !inside(d, roots))];',
    replace: 'const dirs = [...path.split(delimiter).filter(Boolean), ...SYSTEM_DIRS];',
    tests: [`${ATTACKS}/app-programs.test.ts`],
  },
  {
    name: 'key-broker-saved-destination',
    protection: 'a stored key only to its provider or the base URL saved in Settings (keyFor)',
    file: BROKER,
    find: 'return allowed ? own() : null;',
    replace: 'return own();',
    tests: [`${ATTACKS}/key-destinations.test.ts`],
  },
  {
    name: 'key-broker-service-host',
    protection: "a hosted service's key only to that service's host (keyFor), not to a URL that names it",
    file: BROKER,
    find: 'SERVICE_ACCOUNTS.find(([pattern]) => pattern.test(url.hostname.toLowerCase()))',
    replace: "SERVICE_ACCOUNTS.find(([, account]) => url.href.includes(account.replace('provider:', '')))",
    tests: [`${ATTACKS}/key-destinations.test.ts`],
  },
  {
    name: 'key-broker-service-https',
    protection: "a hosted service's key only over HTTPS (keyFor)",
    file: BROKER,
    find: "url?.protocol === 'https:' ?",
    replace: 'url ?',
    tests: [`${ATTACKS}/key-destinations.test.ts`],
  },
  {
    name: 'copy-nonce',
    protection: "the app's code-block classes and Copy button only inside blocks carrying this render's nonce",
    file: 'src-renderer/features/markdown/sanitize-markdown.ts',
    find: 'node.getAttribute(OWN_MARK) === currentMark',
    replace: "node.classList.contains('code-block')",
    tests: [`${ATTACKS}/copy-code.e2e.test.ts`],
    build: true,
  },
  {
    name: 'ws-upgrade-host',
    protection: "browser mode's WebSocket upgrade refused for another Host (421)",
    file: 'src-main/server/browser-server.ts',
    find: "if (!allowedHosts.has(req.headers.host ?? '')) return rejectUpgrade(socket, 421, 'Misdirected Request');",
    replace: '',
    tests: ['test/integration/browser-server.test.ts'],
  },
  {
    name: 'approval-gate',
    protection: 'with auto-run off, a cell waits for approval before it runs',
    file: 'src-main/core/agent/turn-cell.ts',
    find: 'if (settings.autoRun || live.conv.autoRun) {',
    replace: 'if (settings) {',
    tests: [`${ATTACKS}/approval-gate.test.ts`],
  },
  {
    name: 'endpoint-mac',
    protection: 'the approval endpoint asks only for a request signed with its token',
    file: ENDPOINT,
    find: "if (typeof given !== 'string' || !sameMac(given, mac(token, 'ask', raw))) return reply(res, 401, { error: 'not signed with the token' });",
    replace: '',
    tests: [ENDPOINT_TEST],
  },
  {
    name: 'endpoint-origin',
    protection: 'the approval endpoint refuses web pages (Origin)',
    file: ENDPOINT,
    find: "if (req.headers.origin !== undefined) return reply(res, 403, { error: 'requests from web pages are refused' });",
    replace: '',
    tests: [ENDPOINT_TEST],
  },
  {
    name: 'endpoint-host',
    protection: 'the approval endpoint refuses another Host (DNS rebinding)',
    file: ENDPOINT,
    find: "if (req.headers.host !== `127.0.0.1:${port}`) return reply(res, 403, { error: 'not this endpoint' });",
    replace: '',
    tests: [ENDPOINT_TEST],
  },
  {
    name: 'mcp-ask-default',
    protection: 'an MCP tool with no choice made asks first unless its server marks it read-only',
    file: 'src-main/core/mcp/mcp-tools.ts',
    find: "return t.readOnly ? 'allow' : 'ask';",
    replace: "return 'allow';",
    tests: [`${ATTACKS}/mcp-ask-default.test.ts`],
  },
  {
    name: 'sandbox-on-by-default',
    protection: 'the sandbox on by default wherever it works, until the person chooses',
    file: 'src-main/core/exec/sandbox/sandbox-default.ts',
    find: 'return { ...sandbox, enabled: support ? support.available : true };',
    replace: 'return { ...sandbox, enabled: false };',
    tests: [SANDBOX_DEFAULT_TEST],
  },
  {
    name: 'proxy-refuses-local-addresses',
    protection: 'the proxy refuses an address of this machine unless the person listed it (DNS rebinding)',
    file: 'src-main/core/exec/sandbox/network-proxy.ts',
    find: 'if (isLocalAddress(address) && !verdict.mayBeLocal) {',
    replace: 'if (false) {',
    tests: ['test/integration/sandbox/sandbox-network-proxy.test.ts'],
  },
  {
    name: 'network-question-asked',
    protection: 'a host that is neither a registry nor allowed is asked about in the conversation',
    file: 'src-main/core/agent/network-questions.ts',
    find: 'const asked = this.pending.get(key) ?? this.ask(conversationId, host, port);',
    replace: 'const asked = Promise.resolve<NetworkVerdict>({ allow: true, mayBeLocal: true });',
    tests: [SANDBOX_DEFAULT_TEST],
  },
  {
    name: 'data-folder-sealed',
    protection: "the app's data folder never writable inside the sandbox, even inside the workspace",
    file: 'src-main/core/exec/sandbox/bubblewrap-args.ts',
    find: 'const sealed = exposedSealed(plan);',
    replace: 'const sealed: string[] = [];',
    tests: [`${ATTACKS}/sealed-data-folder.test.ts`],
  },
  {
    name: 'hook-sandbox-sealed',
    protection: "a workspace's hooks run in the sandbox cells get, the data folder sealed there too",
    file: 'src-main/core/hooks/hook-runner.ts',
    find: 'settings: this.deps.sandbox?.() ?? settings.sandbox,',
    replace: 'settings: settings.sandbox,',
    tests: [`${ATTACKS}/sealed-data-folder.test.ts`],
  },
];
