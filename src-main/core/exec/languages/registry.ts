import { applescript } from './applescript';
import { html } from './html';
import { java } from './java';
import { javascript } from './javascript';
import type { DetectContext, LanguageDefinition, Runtime } from './language';
import { powershell } from './powershell';
import { python } from './python';
import { r } from './r';
import { ruby } from './ruby';
import { shell } from './shell';
import { zsh } from './zsh';

export const LANGUAGES: readonly LanguageDefinition[] = [python, javascript, shell, zsh, powershell, r, ruby, applescript, java, html];

/** The language a name or alias refers to ('py', 'Bash', 'node'…), or null. */
export function findLanguage(name: string): LanguageDefinition | null {
  const wanted = name.trim().toLowerCase();
  return LANGUAGES.find((l) => l.name === wanted || l.aliases.includes(wanted)) ?? null;
}

/** "python 3.11" — major.minor, or just the major version for Node (that is how people name it). */
export function runtimeSummary(language: LanguageDefinition, runtime: Runtime): string {
  if (!runtime.version) return language.runtimeLabel;
  const parts = runtime.version.split('.');
  const short = language.name === 'javascript' || language.name === 'java' ? parts[0] : parts.slice(0, 2).join('.');
  return `${language.runtimeLabel} ${short}`;
}

/** What is installed here, for the message that a language is missing. HTML is not a runtime. */
export async function availableRuntimes(context: DetectContext): Promise<string[]> {
  const found = await Promise.all(
    LANGUAGES.filter((l) => l.kind !== 'html').map(async (l) => {
      const runtime = await l.detect(context).catch(() => null);
      return runtime ? runtimeSummary(l, runtime) : null;
    }),
  );
  return found.filter((s): s is string => s !== null);
}
