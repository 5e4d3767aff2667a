import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ModelCapability, type ModelTarget } from '@contract';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write';

const StoreFile = z.object({ version: z.literal(1), models: z.record(z.string(), ModelCapability) });

/**
 * What the capability probe found for each (provider, base URL, model), kept in the app's data folder
 * (model-capabilities.json) so a model is probed once, not on every start. Without a data folder (tests,
 * one-shot runs) it lasts for the process.
 */
export class ModelCapabilities {
  private models = new Map<string, ModelCapability>();
  private loaded: Promise<void> | null = null;

  constructor(private readonly dataDir: string | null) {}

  async get(target: ModelTarget): Promise<ModelCapability | null> {
    await this.load();
    return this.models.get(keyOf(target)) ?? null;
  }

  async set(target: ModelTarget, capability: ModelCapability): Promise<void> {
    await this.load();
    this.models.set(keyOf(target), capability);
    if (!this.dataDir) return;
    const file = { version: 1 as const, models: Object.fromEntries(this.models) };
    await writeFileAtomic(this.file(), JSON.stringify(file, null, 2));
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      if (!this.dataDir) return;
      const text = await readFile(this.file(), 'utf8').catch(() => null);
      if (text === null) return;
      // A damaged file only costs a new probe: what it held is dropped, never trusted half-read.
      const parsed = StoreFile.safeParse(parseJson(text));
      if (parsed.success) this.models = new Map(Object.entries(parsed.data.models));
    })();
    return this.loaded;
  }

  private file(): string {
    return path.join(this.dataDir ?? '', 'model-capabilities.json');
  }
}

export function keyOf(target: ModelTarget): string {
  return JSON.stringify([target.provider, target.baseUrl, target.model]);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
