import { EventEmitter } from 'node:events';

// A cell's own process.on('SIGINT', …) listeners are kept here, not on the process: Node would put
// its own signal handler in for them, over the watchdog's that sigint-guard.mjs keeps in place, and
// take it out again (leaving the default action, which ends the process) whenever they go. They are
// called when main interrupts the cell (oi-runner.mjs), which is when a Ctrl-C reached it before.
const METHODS = [
  'on',
  'addListener',
  'prependListener',
  'once',
  'prependOnceListener',
  'off',
  'removeListener',
  'removeAllListeners',
  'listeners',
  'rawListeners',
  'listenerCount',
];

/** Routes the process's 'SIGINT' listeners to the returned emitter; every other event is left alone. */
export function keepSigintListeners() {
  const listeners = new EventEmitter();
  for (const method of METHODS) {
    const own = process[method];
    process[method] = function sigintAware(event, ...rest) {
      if (event !== 'SIGINT') return own.call(this, event, ...rest);
      const value = listeners[method](event, ...rest);
      return value === listeners ? this : value;
    };
  }
  return listeners;
}
