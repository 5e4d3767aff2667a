import { inflateRawSync } from 'node:zlib';

// Reading a skill from a .zip (Settings → Skills, `oi skills install`): a zip is a stranger's file,
// so nothing in it is believed. Its central directory is read here rather than by an unzip library
// because the entry's Unix mode (a link, a device) lives in the "external attributes" unzip libraries
// do not report. Every name is checked before anything is inflated: no absolute path, no drive letter,
// no `..`, `.` or empty component, no backslash, no control character (zip slip); a link, a device, a
// FIFO or a socket refuses the whole zip; the entries' count and their declared sizes are capped, and
// each entry is inflated with zlib's own output limit at its declared size, so a header that lies
// about the size stops the inflation at once instead of filling memory (a zip bomb). The caller
// writes the files (never through a link) into a hidden folder and renames it into place.

export class SkillZipError extends Error {}

export interface ZipLimits {
  maxBytes: number;
  maxEntries: number;
  maxDepth: number;
}

export interface ZipFile {
  segments: string[];
  bytes: Buffer;
  /** Permission bits: the zip's Unix mode when it has one, else a plain file's. */
  mode: number;
}

interface Entry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  mode: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
/** Folders macOS's Finder adds to every zip it makes (resource forks), never part of a skill. */
const MAC_METADATA = '__MACOSX';

/** The zip's files, checked; folders are implied by the files' paths. */
export function readSkillZip(zip: Buffer, limits: ZipLimits): ZipFile[] {
  const entries = readDirectory(zip, limits);
  const files: ZipFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const segments = checkedSegments(entry.name, limits.maxDepth);
    if (segments[0] === MAC_METADATA) continue;
    const type = entry.mode & S_IFMT;
    if (type === S_IFLNK) throw new SkillZipError(`${entry.name} is a symbolic link; a skill with links is not installed`);
    const isFolder = entry.name.endsWith('/') || type === S_IFDIR;
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
      throw new SkillZipError(`${entry.name} is not a plain file or folder (a device, FIFO or socket)`);
    if (entry.flags & 1) throw new SkillZipError(`${entry.name} is encrypted`);
    const key = segments.join('/');
    if (seen.has(key)) throw new SkillZipError(`${entry.name} is in the zip twice`);
    seen.add(key);
    if (isFolder) continue;
    total += entry.size;
    if (total > limits.maxBytes) throw new SkillZipError(`the skill is larger than ${limits.maxBytes / 1024 / 1024} MB unpacked`);
    files.push({ segments, bytes: inflate(zip, entry), mode: entry.mode & 0o777 || 0o644 });
  }
  for (const file of files) {
    for (let depth = 1; depth < file.segments.length; depth++) {
      const parent = file.segments.slice(0, depth).join('/');
      if (files.some((other) => other.segments.join('/') === parent)) throw new SkillZipError(`${parent} is both a file and a folder`);
    }
  }
  return files;
}

function readDirectory(zip: Buffer, limits: ZipLimits): Entry[] {
  const end = findEndOfDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  let offset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff)
    throw new SkillZipError('the zip is in the ZIP64 format, which is for archives far larger than a skill');
  if (count > limits.maxEntries) throw new SkillZipError(`the zip has ${count} entries; a skill may have at most ${limits.maxEntries}`);
  if (offset + directorySize > end) throw new SkillZipError('the zip is damaged: its directory runs past its end');
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > end || zip.readUInt32LE(offset) !== DIRECTORY_ENTRY)
      throw new SkillZipError(`the zip is damaged: entry ${i + 1} of its directory is not where it says`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const entry: Entry = {
      flags: zip.readUInt16LE(offset + 8),
      method: zip.readUInt16LE(offset + 10),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      // The high 16 bits of the external attributes are the Unix mode (0 when the zip was made elsewhere).
      mode: zip.readUInt32LE(offset + 38) >>> 16,
      localOffset: zip.readUInt32LE(offset + 42),
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
    };
    if (offset + 46 + nameLength > end) throw new SkillZipError('the zip is damaged: a name runs past its directory');
    entries.push(entry);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndOfDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535, at the very end of the file.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new SkillZipError('it is not a zip file (no zip directory at its end)');
}

/** The entry's path as folder names, or an error naming why it could land outside the skill's folder. */
function checkedSegments(name: string, maxDepth: number): string[] {
  const shown = JSON.stringify(name);
  if (name === '') throw new SkillZipError('an entry has an empty name');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    throw new SkillZipError(`${shown} is an absolute path; a skill's files must stay inside its folder`);
  if (name.includes('\\')) throw new SkillZipError(`${shown} contains a backslash, which could name a folder outside the skill on Windows`);
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new SkillZipError(`${shown} contains a control character`);
  const segments = name.replace(/\/$/, '').split('/');
  for (const segment of segments) {
    if (segment === '..') throw new SkillZipError(`${shown} climbs out with "..", so it would be written outside the skill's folder`);
    if (segment === '' || segment === '.') throw new SkillZipError(`${shown} has an empty or "." component`);
  }
  if (segments.length > maxDepth) throw new SkillZipError(`${shown} is nested too deep`);
  return segments;
}

function inflate(zip: Buffer, entry: Entry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER)
    throw new SkillZipError(`the zip is damaged: ${entry.name} is not where its directory says`);
  const nameLength = zip.readUInt16LE(at + 26);
  const localName = zip.toString('utf8', at + 30, at + 30 + nameLength);
  // Unzip programs disagree on which of the two names they use; a zip that gives two is refused.
  if (localName !== entry.name)
    throw new SkillZipError(`${JSON.stringify(entry.name)} is named ${JSON.stringify(localName)} in its own header`);
  const start = at + 30 + nameLength + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) throw new SkillZipError(`the zip is damaged: ${entry.name} runs past its end`);
  const data = zip.subarray(start, start + entry.compressedSize);
  let bytes: Buffer;
  if (entry.method === 0) bytes = Buffer.from(data);
  else if (entry.method === 8) {
    try {
      // Never more than the declared size: a lying header is caught here, after at most that much work.
      bytes = entry.size === 0 ? Buffer.alloc(0) : inflateRawSync(data, { maxOutputLength: entry.size });
    } catch (err) {
      const tooBig = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      throw new SkillZipError(
        tooBig
          ? `${entry.name} unpacks to more than the ${entry.size} bytes its header says`
          : `${entry.name} cannot be unpacked: ${(err as Error).message}`,
      );
    }
  } else throw new SkillZipError(`${entry.name} is compressed with method ${entry.method}; only stored and deflated entries are read`);
  if (bytes.length !== entry.size)
    throw new SkillZipError(`${entry.name} unpacks to ${bytes.length} bytes, not the ${entry.size} its header says`);
  return bytes;
}
