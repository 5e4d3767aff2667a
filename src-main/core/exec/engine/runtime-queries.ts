import { python } from '../languages/python';
import { listPythonPackages } from '../languages/python-packages';
import { LANGUAGES } from '../languages/registry';
import { scopeRequest, type DetectContextOf } from './detect-context';
import type { LanguageInfo, LanguagesScope, PythonInfo } from './types';

// What the engine tells about the runtimes a scope has (ExecService.python and .languages), found
// where that scope's runs would look for them.

export async function pythonOf(detectContext: DetectContextOf, scope: LanguagesScope): Promise<PythonInfo | null> {
  const asked = Date.now();
  const context = await detectContext(scopeRequest(scope));
  const runtime = await python.detect(context).catch(() => null);
  if (!runtime || !context.probing) return null;
  // The packages the version's probe listed, when its answer came back after this was asked (a cold
  // detection asks both at once); an answer kept from before (this process's, or a pyenv shim's from
  // an earlier start) may predate an install, so the list is asked afresh.
  if (runtime.packages && runtime.packages.listedAt >= asked) return { command: runtime.command, packages: runtime.packages.names };
  return { command: runtime.command, packages: await listPythonPackages(runtime.command, context.probing, runtime.support) };
}

export async function languagesOf(detectContext: DetectContextOf, scope?: LanguagesScope): Promise<LanguageInfo[]> {
  const context = await detectContext(scope ? scopeRequest(scope) : null);
  return Promise.all(
    LANGUAGES.map(async (l): Promise<LanguageInfo> => {
      const runtime = await l.detect(context).catch(() => null);
      return {
        name: l.name,
        aliases: l.aliases,
        available: runtime !== null,
        version: runtime?.version ?? null,
        persistent: l.kind === 'shell' || l.kind === 'runner',
      };
    }),
  );
}
