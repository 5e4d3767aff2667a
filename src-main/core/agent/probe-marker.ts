/**
 * Written into every capability probe's system prompt (capability-probe.ts). It lets a scripted test
 * server tell probes from turns, and a person reading a server's log see what the request was.
 */
export const PROBE_MARKER = 'oi-capability-probe';
