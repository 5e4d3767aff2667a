import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { readBeneath } from '../../fs/bounded-read';
import { versionOf, which } from './find-runtime';
import { localProbing } from './probing';
import type { LanguageDefinition } from './language';

// Java 11+ runs a single source file directly (`java Main.java`): no separate compile step, and the
// file name need not match the class name.
export const java: LanguageDefinition = {
  name: 'java',
  label: 'Java',
  aliases: ['java'],
  kind: 'one-shot',
  runtimeLabel: 'java',
  async detect({ path: searchPath, probing = localProbing() }) {
    const command = await which('java', searchPath);
    if (!command) return null;
    const version = (await releaseVersion(command)) ?? (await versionOf(probing, command, ['-version'], VERSION));
    return { command, version };
  },
  oneShot: { fileName: 'Main.java', args: (file) => [file] },
};

const VERSION = /version "?(\d+(?:\.\d+)*)/;

/**
 * The version a JDK or JRE writes in its `release` file beside `bin/` (JAVA_VERSION="17.0.15"), read
 * instead of starting a JVM for `java -version` (~0.2 CPU-seconds at every cold runtime detection,
 * the costliest probe of the list). Only read, never run; bounded and never through a link below the
 * Java home. Null (so `java -version` is asked) when `java` is not a JDK's launcher (a wrapper script,
 * a version manager's shim) or the file says nothing usable.
 */
async function releaseVersion(command: string): Promise<string | null> {
  const real = await realpath(command).catch(() => null);
  if (!real || path.basename(path.dirname(real)) !== 'bin') return null;
  const read = await readBeneath(path.dirname(path.dirname(real)), ['release'], 16 * 1024);
  if (!read.ok) return null;
  const declared = /^JAVA_VERSION="([^"\n]*)"$/m.exec(read.bytes.toString('utf8'))?.[1];
  // The same pattern `java -version`'s answer is read with: "1.8.0_392" gives 1.8.0, as it would.
  return declared ? (VERSION.exec(`version "${declared}"`)?.[1] ?? null) : null;
}
