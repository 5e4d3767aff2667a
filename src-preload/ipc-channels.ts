import type { RequestName } from './contract';

/** One IPC channel per request name, so main can register exactly the contract's names. */
export const requestChannel = (name: RequestName): string => `oi:request:${name}`;
export const EVENT_CHANNEL = 'oi:event';
