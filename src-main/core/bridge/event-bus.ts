import type { AnyEvent, EventName, EventPayload } from '@contract';

export type EventListener = (event: AnyEvent) => void;

/** Main → renderer events, typed by the contract. Transports subscribe and forward every event. */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    const event = { name, payload } as AnyEvent;
    for (const listener of this.listeners) {
      // One broken listener (a closed socket) must not stop the others or the agent loop.
      try {
        listener(event);
      } catch (err) {
        console.error(`event listener failed on ${name}:`, err);
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
