import type { Settings, SettingsPatch } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { isIP } from 'node:net';
import { Sandbox } from '../exec';
import type { ApprovalDecision } from './approvals';
import { newId } from './ids';
import type { LiveConversation } from './live-conversation';
import type { OpenConversations } from './open-conversations';

// Who decides where a sandboxed conversation's code may connect (the proxy of exec/sandbox/
// network-proxy.ts asks here, host by host): the package registries and the hosts the person allowed
// for good go through; any other host is asked once per conversation, in the conversation, like a
// cell approval. Auto-run does not answer these: it lets code run, not reach any host it names, which
// is what the proxy is for. Where nobody can be asked, the code is refused, and told so.

export interface NetworkQuestionsDeps {
  open: OpenConversations;
  settings: () => Settings;
  updateSettings: (patch: SettingsPatch) => void;
  events: EventBus;
  /** A question is shown to the person (the needsPerson hooks). */
  onAsking?: (live: LiveConversation, detail: Record<string, unknown>) => void;
}

const NEVER = new AbortController().signal;

export class NetworkQuestions {
  /**
   * The answers given in each open conversation, host → allowed. Keyed by the open copy, so they go
   * when the conversation is closed (OpenConversations.forget) and are asked again when it is reopened.
   */
  private readonly answers = new WeakMap<LiveConversation, Map<string, boolean>>();
  /** One question per conversation and host, however many connections wait on it. */
  private readonly pending = new Map<string, Promise<Sandbox.NetworkVerdict>>();

  constructor(private readonly deps: NetworkQuestionsDeps) {}

  /** The policy for one conversation's sandboxed sessions. */
  policyFor(conversationId: string): Sandbox.NetworkPolicy {
    return (host, port) => this.decide(conversationId, host, port);
  }

  async decide(conversationId: string, host: string, port: number): Promise<Sandbox.NetworkVerdict> {
    const sandbox = this.deps.settings().sandbox;
    if (Sandbox.hostListed(host, sandbox.allowedHosts)) return { allow: true, mayBeLocal: true };
    if (Sandbox.hostListed(host, Sandbox.REGISTRY_HOSTS)) return { allow: true, mayBeLocal: false };
    const live = this.deps.open.get(conversationId);
    const earlier = live && this.answers.get(live)?.get(host);
    if (earlier === true) return { allow: true, mayBeLocal: namesAnAddress(host) };
    if (earlier === false) return refused(`${host} was refused earlier in this conversation`);
    const key = `${conversationId}\n${host}`;
    const asked = this.pending.get(key) ?? this.ask(conversationId, host, port);
    this.pending.set(key, asked);
    try {
      return await asked;
    } finally {
      this.pending.delete(key);
    }
  }

  private async ask(conversationId: string, host: string, port: number): Promise<Sandbox.NetworkVerdict> {
    const live = this.deps.open.get(conversationId);
    if (!live) return refused(`nobody could be asked to allow ${host}; add it to the sandbox's allowed hosts in the settings`);
    const questionId = newId();
    const stop = live.runController?.signal ?? live.turn?.controller.signal ?? NEVER;
    const timeUp = AbortSignal.timeout(this.deps.settings().exec.timeoutMs);
    const answer = live.approvals.wait(questionId, AbortSignal.any([stop, timeUp]));
    this.deps.events.emit('network.awaiting-approval', { conversationId, questionId, cellId: live.runningCellId, host, port });
    this.deps.onAsking?.(live, { network: { host, port } });
    const decision: ApprovalDecision = await answer;
    const allowed = decision.kind === 'run';
    this.deps.events.emit('network.answered', { conversationId, questionId, host, allowed });
    if (decision.kind === 'stop') {
      return refused(timeUp.aborted && !stop.aborted ? `nobody answered the question to allow ${host} in time` : 'the run was stopped');
    }
    this.remember(live, host, allowed);
    if (allowed && decision.always) this.allowAlways(host);
    // "Always" lists the host in settings, which may then be on this machine (as one listed by hand).
    return allowed ? { allow: true, mayBeLocal: decision.always || namesAnAddress(host) } : refused(`the person did not allow ${host}`);
  }

  /** `network.answer`: false when nothing waits on that question. */
  answer(conversationId: string, questionId: string, answer: 'conversation' | 'always' | 'deny'): boolean {
    const live = this.deps.open.get(conversationId);
    if (!live) return false;
    const decision: ApprovalDecision = answer === 'deny' ? { kind: 'skip' } : { kind: 'run', code: null, always: answer === 'always' };
    return live.approvals.decide(questionId, decision);
  }

  private remember(live: LiveConversation, host: string, allowed: boolean): void {
    const hosts = this.answers.get(live) ?? new Map<string, boolean>();
    hosts.set(host, allowed);
    this.answers.set(live, hosts);
  }

  private allowAlways(host: string): void {
    const sandbox = this.deps.settings().sandbox;
    if (Sandbox.hostListed(host, sandbox.allowedHosts)) return;
    this.deps.updateSettings({ sandbox: { allowedHosts: [...sandbox.allowedHosts, host] } });
  }
}

/**
 * The host asked about is an address (or localhost): the person saw what they allowed, so it may be on
 * this machine. A name allowed for the conversation may not turn out to be one (DNS rebinding).
 */
function namesAnAddress(host: string): boolean {
  const name = Sandbox.normalHost(host);
  return isIP(name) !== 0 || name === 'localhost';
}

function refused(reason: string): Sandbox.NetworkVerdict {
  return { allow: false, reason };
}
