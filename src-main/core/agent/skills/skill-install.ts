import { randomBytes } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { readBeneath } from '../../fs/bounded-read';
import { holdFolder, removeBeneath, renameBeneath, writeNewFileBeneath } from '../../fs/no-follow-open';
import { parseSkillFile } from './skill-front-matter';
import { SKILL_FILE_BYTES } from './skill-discovery';
import { readSkillZip, SkillZipError } from './skill-zip';

// Installing a skill from a folder or a .zip (Settings, `oi skills install`): its files are copied into the person's skills folder,
// `<data folder>/skills/<name>/`, under the name its SKILL.md gives. A link anywhere in it refuses the
// whole install (a link could copy ~/.ssh into a folder the model reads), and so does anything that
// is not a plain file or folder; the size and number of files are capped. The copy is made in a
// hidden folder beside the others and renamed into place, so a failed install leaves nothing behind.
// A zip is checked entry by entry before anything is written (skill-zip.ts); its skill may sit at its
// top or in one folder at its top, as `zip -r name.zip name/` makes it.

/** Bytes of all of a skill's files together. */
export const MAX_INSTALL_BYTES = 20 * 1024 * 1024;
export const MAX_INSTALL_FILES = 1000;
const MAX_DEPTH = 8;

export class SkillInstallError extends Error {}

interface SourceFile {
  segments: string[];
  bytes: Buffer;
  mode: number;
}

/** Copies the skill in `source` into `<dataDir>/skills/`; returns its name. */
export async function installSkill(dataDir: string, source: string): Promise<string> {
  const root = await realpath(source).catch(() => {
    throw new SkillInstallError(`${source} does not exist`);
  });
  const files = (await stat(root)).isDirectory() ? await collect(root) : await unzip(root);
  const main = files.find((f) => f.segments.length === 1 && f.segments[0] === 'SKILL.md');
  if (!main) throw new SkillInstallError(`${source} has no SKILL.md, so it is not a skill`);
  if (main.bytes.length > SKILL_FILE_BYTES) throw new SkillInstallError(`SKILL.md is longer than ${SKILL_FILE_BYTES / 1024} KB`);
  const parsed = parseSkillFile(main.bytes.toString('utf8'));
  if (!parsed.ok) throw new SkillInstallError(`SKILL.md: ${parsed.reason}`);
  const skills = await holdFolder(dataDir, ['skills'], { create: true, mode: 0o700 });
  const taken = (await readdir(skills.self)).includes(parsed.name);
  await skills.close();
  if (taken)
    throw new SkillInstallError(`a skill called "${parsed.name}" is already installed (${path.join(dataDir, 'skills', parsed.name)})`);
  const staging = `.installing-${randomBytes(6).toString('hex')}`;
  try {
    for (const file of files) {
      await writeNewFileBeneath(dataDir, ['skills', staging, ...file.segments], file.bytes, {
        create: true,
        mode: 0o755,
        fileMode: file.mode & 0o111 ? 0o755 : 0o644,
      });
    }
    await renameBeneath(dataDir, ['skills', staging], ['skills', parsed.name]);
  } catch (err) {
    await removeBeneath(dataDir, ['skills', staging]).catch(() => undefined);
    throw err;
  }
  return parsed.name;
}

/** The files of a .zip, checked (skill-zip.ts), without the one folder the skill may be wrapped in. */
async function unzip(file: string): Promise<SourceFile[]> {
  if (!file.toLowerCase().endsWith('.zip'))
    throw new SkillInstallError(`${file} is a file but not a .zip; give a skill's folder or a .zip of it`);
  const read = await readBeneath(path.dirname(file), [path.basename(file)], MAX_INSTALL_BYTES);
  if (!read.ok) throw new SkillInstallError(`${file} cannot be read: ${read.message}`);
  if (read.bytes.length > MAX_INSTALL_BYTES) throw new SkillInstallError(`${file} is larger than ${MAX_INSTALL_BYTES / 1024 / 1024} MB`);
  let files;
  try {
    files = readSkillZip(read.bytes, { maxBytes: MAX_INSTALL_BYTES, maxEntries: MAX_INSTALL_FILES, maxDepth: MAX_DEPTH + 1 });
  } catch (err) {
    if (err instanceof SkillZipError) throw new SkillInstallError(`${path.basename(file)}: ${err.message}`);
    throw err;
  }
  const top = files[0]?.segments[0];
  const wrapped =
    top !== undefined &&
    !files.some((f) => f.segments.length === 1) &&
    files.every((f) => f.segments[0] === top) &&
    files.some((f) => f.segments.length === 2 && f.segments[1] === 'SKILL.md');
  return wrapped ? files.map((f) => ({ ...f, segments: f.segments.slice(1) })) : files;
}

/** Every file of the folder, read without following a link; refuses links, special files and too much. */
async function collect(root: string): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  let total = 0;
  const walk = async (relative: string[]): Promise<void> => {
    if (relative.length > MAX_DEPTH) throw new SkillInstallError(`${path.join(root, ...relative)} is nested too deep`);
    const folder = await holdFolder(root, relative);
    let entries;
    try {
      entries = await readdir(folder.self, { withFileTypes: true });
    } finally {
      await folder.close();
    }
    for (const entry of entries) {
      const segments = [...relative, entry.name];
      const shown = path.join(root, ...segments);
      if (entry.isSymbolicLink()) throw new SkillInstallError(`${shown} is a symbolic link; a skill with links is not installed`);
      if (entry.isDirectory()) {
        await walk(segments);
        continue;
      }
      if (!entry.isFile()) throw new SkillInstallError(`${shown} is not a plain file`);
      if (out.length >= MAX_INSTALL_FILES) throw new SkillInstallError(`the skill has more than ${MAX_INSTALL_FILES} files`);
      const read = await readBeneath(root, segments, MAX_INSTALL_BYTES - total);
      if (!read.ok) throw new SkillInstallError(`${shown} cannot be read: ${read.message}`);
      total += read.bytes.length;
      if (total > MAX_INSTALL_BYTES) throw new SkillInstallError(`the skill is larger than ${MAX_INSTALL_BYTES / 1024 / 1024} MB`);
      out.push({ segments, bytes: read.bytes, mode: read.mode });
    }
  };
  await walk([]);
  return out;
}
