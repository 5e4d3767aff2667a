import type { Settings } from '@contract';

/**
 * Models seen refusing tool definitions (a 400 from a local server whose model has no tool template),
 * remembered for the life of the app so later calls go straight to fenced code blocks.
 */
export class ToolSupportMemory {
  private readonly refused = new Set<string>();

  refuses(settings: Pick<Settings, 'provider' | 'baseUrl' | 'model'>): boolean {
    return this.refused.has(keyOf(settings));
  }

  noteRefusal(settings: Pick<Settings, 'provider' | 'baseUrl' | 'model'>): void {
    this.refused.add(keyOf(settings));
  }
}

const keyOf = (s: Pick<Settings, 'provider' | 'baseUrl' | 'model'>): string => JSON.stringify([s.provider, s.baseUrl, s.model]);
