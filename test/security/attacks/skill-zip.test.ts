import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installSkill, MAX_INSTALL_BYTES } from '../../../src-main/core/agent/skills/skill-install';

// Issue 28: a skill's .zip is a stranger's file (Settings → Skills, `oi skills install`). Each attack
// is a zip built here with the real entry it needs; the install must refuse it, name the problem,
// write nothing outside the skills folder and leave nothing half-installed. Each twin unpacks the
// same zip the way a plain extractor does (the classic zip-slip loop over fflate's unzip, Info-ZIP's
// `unzip`, zlib without a limit) and shows the attack lands there.

const SKILL = new TextEncoder().encode('---\nname: planted\ndescription: A skill from a zip.\n---\nBody.\n');
const UNIX = 3;
const S_IFLNK = 0o120000;
const S_IFCHR = 0o020000;

function zipOf(files: Zippable): Buffer {
  return Buffer.from(zipSync(files));
}

/** The classic zip-slip extractor: each entry written to path.join(target, name). */
function naiveExtract(zip: Buffer, target: string): void {
  for (const [name, bytes] of Object.entries(unzipSync(zip))) {
    const to = path.join(target, name);
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, bytes);
  }
}

describe('installing a skill from a .zip refuses what could escape or explode (issue 28)', () => {
  let root: string;
  let dataDir: string;
  const skills = () => path.join(dataDir, 'skills');

  beforeAll(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oi-skill-zip-')));
    dataDir = path.join(root, 'data', 'oi');
    mkdirSync(dataDir, { recursive: true });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const attempt = async (name: string, zip: Buffer, refusal: RegExp) => {
    const file = path.join(root, `${name}.zip`);
    writeFileSync(file, zip);
    await expect(installSkill(dataDir, file)).rejects.toThrow(refusal);
    // Nothing installed, nothing half-written beside the skills.
    expect(existsSync(skills()) ? readdirSync(skills()) : []).toEqual([]);
  };

  it('zip slip: an entry named ../… or with an absolute path is refused and nothing lands outside; the twin’s plain extractor writes outside', async () => {
    const slip = zipOf({ 'SKILL.md': SKILL, '../../escaped.txt': new TextEncoder().encode('planted') });
    await attempt('slip', slip, /"\.\.\/\.\.\/escaped\.txt" climbs out with "\.\.", so it would be written outside the skill's folder/);
    expect(existsSync(path.join(root, 'data', 'escaped.txt'))).toBe(false);
    await attempt('absolute', zipOf({ 'SKILL.md': SKILL, [path.join(root, 'abs.txt')]: SKILL }), /is an absolute path/);
    expect(existsSync(path.join(root, 'abs.txt'))).toBe(false);
    await attempt('backslash', zipOf({ 'SKILL.md': SKILL, '..\\..\\win.txt': SKILL }), /contains a backslash/);

    // Twin: extracted into the same place by the usual loop, the entry lands two folders up.
    naiveExtract(slip, path.join(dataDir, 'skills-naive', 'planted'));
    expect(readFileSync(path.join(dataDir, 'escaped.txt'), 'utf8')).toBe('planted');
  });

  it('a link or a device entry refuses the whole zip; the twin: Info-ZIP’s unzip makes the link, pointing outside', async () => {
    const secret = path.join(root, 'secret.txt');
    writeFileSync(secret, 'SECRET');
    const linked = zipOf({
      'SKILL.md': SKILL,
      'reference/notes.md': [new TextEncoder().encode(secret), { os: UNIX, attrs: (S_IFLNK | 0o777) << 16 }],
    });
    await attempt('link', linked, /link\.zip: reference\/notes\.md is a symbolic link; a skill with links is not installed/);
    await attempt(
      'device',
      zipOf({ 'SKILL.md': SKILL, tty: [new Uint8Array(0), { os: UNIX, attrs: (S_IFCHR | 0o666) << 16 }] }),
      /tty is not a plain file or folder \(a device, FIFO or socket\)/,
    );

    const twin = path.join(root, 'unzipped');
    execFileSync('/usr/bin/unzip', ['-q', path.join(root, 'link.zip'), '-d', twin]);
    expect(lstatSync(path.join(twin, 'reference', 'notes.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(twin, 'reference', 'notes.md'))).toBe(secret);
    expect(readFileSync(path.join(twin, 'reference', 'notes.md'), 'utf8')).toBe('SECRET');
  });

  it('zip bombs: too many entries, too much unpacked, or a header that lies about the size; the twin unpacks past the cap', async () => {
    const many: Zippable = { 'SKILL.md': SKILL };
    for (let i = 0; i < 1001; i++) many[`f/${i}`] = new Uint8Array(0);
    await attempt('many', zipOf(many), /the zip has 1002 entries; a skill may have at most 1000/);

    const zeros = new Uint8Array(MAX_INSTALL_BYTES + 1);
    const bomb = zipOf({ 'SKILL.md': SKILL, 'data.bin': zeros });
    expect(bomb.length).toBeLessThan(100_000);
    await attempt('bomb', bomb, /the skill is larger than 20 MB unpacked/);

    // The same entry with its sizes rewritten to 100 bytes, in the directory and its own header.
    const lying = Buffer.from(bomb);
    const local = lying.indexOf('data.bin') - 30;
    const central = lying.lastIndexOf('data.bin') - 46;
    lying.writeUInt32LE(100, local + 22);
    lying.writeUInt32LE(100, central + 24);
    await attempt('lying', lying, /data\.bin unpacks to more than the 100 bytes its header says/);

    // Twin: inflated without a limit, the same bytes are more than the whole cap.
    const start = local + 30 + lying.readUInt16LE(local + 26) + lying.readUInt16LE(local + 28);
    expect(inflateRawSync(lying.subarray(start, start + lying.readUInt32LE(central + 20))).length).toBeGreaterThan(MAX_INSTALL_BYTES);
  });
});
