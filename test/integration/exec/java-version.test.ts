import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { java } from '../../../src-main/core/exec/languages/java';
import { localProbing } from '../../../src-main/core/exec/languages/probing';
import { installed } from '../../support/installed';

// Java's version is read from the JDK's `release` file rather than by starting a JVM (`java -version`,
// ~0.2 CPU-seconds at every cold runtime detection). The stand-in `java` below is a script that
// prints a version and leaves a file saying it ran, so a test sees whether it was run at all.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `<tmp>/jdk/bin/java` (a script answering -version), linked from `<tmp>/path/java`; `release` when given. */
function standInJdk(release: string | null): { searchPath: string; ran: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-java-'));
  dirs.push(dir);
  const ran = path.join(dir, 'ran');
  mkdirSync(path.join(dir, 'jdk', 'bin'), { recursive: true });
  const launcher = path.join(dir, 'jdk', 'bin', 'java');
  writeFileSync(launcher, `#!/bin/sh\ntouch '${ran}'\necho 'openjdk version "11.0.2" 2019-01-15' >&2\n`);
  chmodSync(launcher, 0o755);
  if (release !== null) writeFileSync(path.join(dir, 'jdk', 'release'), release);
  mkdirSync(path.join(dir, 'path'));
  symlinkSync(launcher, path.join(dir, 'path', 'java'));
  return { searchPath: path.join(dir, 'path'), ran };
}

/** Detection as the engine asks it without a sandbox: PATH only, programs run directly. */
const context = (searchPath: string) => ({ workspace: null, settings: null, path: searchPath, probing: localProbing() });

describe('java detection', () => {
  it('reads the version from the release file beside bin/, through the link on PATH, and runs no JVM', async () => {
    const jdk = standInJdk('IMPLEMENTOR="Debian"\nJAVA_VERSION="17.0.15"\nOS_NAME="Linux"\n');
    const found = await java.detect(context(jdk.searchPath));
    expect(found).toMatchObject({ command: path.join(jdk.searchPath, 'java'), version: '17.0.15' });
    expect(existsSync(jdk.ran)).toBe(false);
  });

  it('asks `java -version` when there is no release file, or it names no version', async () => {
    for (const release of [null, 'IMPLEMENTOR="Someone"\n']) {
      const jdk = standInJdk(release);
      const found = await java.detect(context(jdk.searchPath));
      expect(found).toMatchObject({ version: '11.0.2' });
      expect(existsSync(jdk.ran)).toBe(true);
    }
  });

  it('reads an old-style version as `java -version` is read (1.8.0_392 gives 1.8.0)', async () => {
    const jdk = standInJdk('JAVA_VERSION="1.8.0_392"\n');
    expect(await java.detect(context(jdk.searchPath))).toMatchObject({ version: '1.8.0' });
  });

  it('gives the machine’s Java the version `java -version` gives', async () => {
    expect(installed('java')).toBe(true);
    const answer = execFileSync('sh', ['-c', 'java -version 2>&1'], { encoding: 'utf8' });
    const expected = /version "?(\d+(?:\.\d+)*)/.exec(answer)?.[1];
    expect(expected).toBeTruthy();
    expect(await java.detect(context(process.env.PATH ?? ''))).toMatchObject({ version: expected });
  });
});
