import { existsSync, mkdirSync } from 'node:fs';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stdoutOf, useHarness } from '../../support/exec-harness';
import { installed } from '../../support/installed';

// The `files` helper every persistent language's runner gives code (oi_files.py, files.mjs,
// oi_files.rb, R's files) behaves the same in each: one table says how to call it in each language,
// and one suite holds them all to the same results. What one language does beyond this (R's search
// path, Python's two modes) stays in that language's own tests.

const INPUTS = ['a.txt', 'sub/../b.txt', '../outside.txt', '/etc/hostname', '~/x', '~', '.', 'a//b/'];

/** One failing call of the helper, and the error it must raise (its name, and text naming the path or the remedy). */
interface Refusal {
  what: string;
  code: string;
  ename?: string;
  evalue: RegExp;
}

interface HelperLanguage {
  language: string;
  available: boolean;
  /** Prints files.path(p) for every input, one a line, after moving the working folder away. */
  paths: string;
  /**
   * After changing into `elsewhere/`: writes notes/a.txt ("alpha\nneedle here\n"), appends to
   * notes/b.txt ("beta\n" after "be" … written in two calls), writes notes/data.json ({k: [1, 2]}),
   * then prints, a line each: what read gives of a.txt (two lines), list("notes") joined by ",",
   * list(".", "**\/*.txt") joined by ",", each search("needle") match as path:line:text, the first byte
   * of a.txt read as binary (a number), and after deleting b.txt: exists(b.txt) and list("notes") again.
   */
  roundTrip: string;
  refusals: Refusal[];
}

const mkdirThenChdir = {
  python: 'import os\nos.makedirs("elsewhere", exist_ok=True)\nos.chdir("elsewhere")',
  javascript: 'require("node:fs").mkdirSync("elsewhere", { recursive: true })\nprocess.chdir("elsewhere")',
  ruby: 'Dir.mkdir("elsewhere") unless Dir.exist?("elsewhere")\nDir.chdir("elsewhere")',
  r: 'dir.create("elsewhere", showWarnings = FALSE)\nsetwd("elsewhere")',
};

const LANGUAGES: HelperLanguage[] = [
  {
    language: 'python',
    available: true,
    paths: `import os, tempfile\nos.chdir(tempfile.gettempdir())\nprint("\\n".join(files.path(p) for p in ${JSON.stringify(INPUTS)}))`,
    roundTrip: [
      mkdirThenChdir.python,
      'files.write("notes/a.txt", "alpha\\nneedle here\\n")',
      'files.write("notes/b.txt", "be")',
      'files.write("notes/b.txt", "ta\\n", append=True)',
      'files.write("notes/data.json", {"k": [1, 2]})',
      'files.write("notes/deep/c.txt", "one\\nneedle two\\n")',
      'files.write("notes/node_modules/skipped.txt", "needle in a skipped folder")',
      'print(files.read("notes/a.txt"), end="")',
      'print(",".join(files.list("notes")))',
      'print(",".join(files.list(".", "**/*.txt")))',
      "for m in files.search(\"needle\"):\n    print(f\"{m['path']}:{m['line']}:{m['text']}\")",
      'print(files.read("notes/a.txt", binary=True)[0])',
      'files.delete("notes/b.txt")',
      'print(str(files.exists("notes/b.txt")).lower())',
      'print(",".join(files.list("notes")))',
      'files.delete("notes", recursive=True)',
      'print(str(files.exists("notes")).lower())',
    ].join('\n'),
    refusals: [
      { what: 'a missing file', code: 'files.read("missing.txt")', ename: 'FileNotFoundError', evalue: /missing\.txt/ },
      { what: 'a file listed as a folder', code: 'files.list("plain.txt")', ename: 'NotADirectoryError', evalue: /plain\.txt/ },
      { what: 'a folder with files in it', code: 'files.delete("full")', ename: 'OSError', evalue: /recursive=True/ },
      { what: 'bytes read as text', code: 'files.read("blob.bin")', ename: 'ValueError', evalue: /binary=True/ },
      { what: 'an unreadable file', code: 'files.read("locked.txt")', ename: 'PermissionError', evalue: /locked\.txt/ },
    ],
  },
  {
    language: 'javascript',
    available: true,
    paths: `process.chdir((await import("node:os")).tmpdir());\nconsole.log(${JSON.stringify(INPUTS)}.map((p) => files.path(p)).join("\\n"));`,
    roundTrip: [
      mkdirThenChdir.javascript,
      'files.write("notes/a.txt", "alpha\\nneedle here\\n")',
      'files.write("notes/b.txt", "be")',
      'files.write("notes/b.txt", "ta\\n", { append: true })',
      'files.write("notes/data.json", { k: [1, 2] })',
      'files.write("notes/deep/c.txt", "one\\nneedle two\\n")',
      'files.write("notes/node_modules/skipped.txt", "needle in a skipped folder")',
      'process.stdout.write(files.read("notes/a.txt"))',
      'console.log(files.list("notes").join(","))',
      'console.log(files.list(".", "**/*.txt").join(","))',
      'for (const m of files.search("needle")) console.log(`${m.path}:${m.line}:${m.text}`)',
      'console.log(String(files.read("notes/a.txt", { binary: true })[0]))',
      'files.delete("notes/b.txt")',
      'console.log(String(files.exists("notes/b.txt")))',
      'console.log(files.list("notes").join(","))',
      'files.delete("notes", { recursive: true })',
      'console.log(String(files.exists("notes")))',
    ].join('\n'),
    refusals: [
      { what: 'a missing file', code: 'files.read("missing.txt")', evalue: /^ENOENT: .*missing\.txt/ },
      { what: 'a file listed as a folder', code: 'files.list("plain.txt")', evalue: /^ENOTDIR: .*plain\.txt/ },
      { what: 'a folder with files in it', code: 'files.delete("full")', evalue: /^ENOTEMPTY: .*recursive: true.*full/ },
      { what: 'an unreadable file', code: 'files.read("locked.txt")', evalue: /^EACCES: .*locked\.txt/ },
    ],
  },
  {
    language: 'ruby',
    available: installed('ruby'),
    paths: `require "tmpdir"\nDir.chdir(Dir.tmpdir)\nputs ${JSON.stringify(INPUTS)}.map { |p| files.path(p) }`,
    roundTrip: [
      mkdirThenChdir.ruby,
      'files.write("notes/a.txt", "alpha\\nneedle here\\n")',
      'files.write("notes/b.txt", "be")',
      'files.write("notes/b.txt", "ta\\n", append: true)',
      'files.write("notes/data.json", { "k" => [1, 2] })',
      'files.write("notes/deep/c.txt", "one\\nneedle two\\n")',
      'files.write("notes/node_modules/skipped.txt", "needle in a skipped folder")',
      'print files.read("notes/a.txt")',
      'puts files.list("notes").join(",")',
      'puts files.list(".", "**/*.txt").join(",")',
      'files.search("needle").each { |m| puts "#{m[:path]}:#{m[:line]}:#{m[:text]}" }',
      'puts files.read("notes/a.txt", binary: true).bytes.first',
      'files.delete("notes/b.txt")',
      'puts files.exist?("notes/b.txt")',
      'puts files.list("notes").join(",")',
      'files.delete("notes", recursive: true)',
      'puts files.exist?("notes")',
    ].join('\n'),
    refusals: [
      { what: 'a missing file', code: 'files.read("missing.txt")', ename: 'Errno::ENOENT', evalue: /missing\.txt/ },
      { what: 'a file listed as a folder', code: 'files.list("plain.txt")', ename: 'Errno::ENOTDIR', evalue: /plain\.txt/ },
      { what: 'a folder with files in it', code: 'files.delete("full")', ename: 'Errno::ENOTEMPTY', evalue: /full/ },
      { what: 'bytes read as text', code: 'files.read("blob.bin")', ename: 'ArgumentError', evalue: /binary: true/ },
      { what: 'an unreadable file', code: 'files.read("locked.txt")', ename: 'Errno::EACCES', evalue: /locked\.txt/ },
    ],
  },
  {
    language: 'r',
    available: installed('Rscript'),
    paths: `setwd(tempdir())\ncat(paste0(vapply(c(${INPUTS.map((p) => JSON.stringify(p)).join(', ')}), files$path, ""), "\\n"), sep = "")`,
    roundTrip: [
      mkdirThenChdir.r,
      'files$write("notes/a.txt", "alpha\\nneedle here\\n")',
      'files$write("notes/b.txt", "be")',
      'files$write("notes/b.txt", "ta\\n", append = TRUE)',
      'files$write("notes/data.json", list(k = c(1, 2)))',
      'files$write("notes/deep/c.txt", "one\\nneedle two\\n")',
      'files$write("notes/node_modules/skipped.txt", "needle in a skipped folder")',
      'cat(files$read("notes/a.txt"))',
      'cat(paste(files$list("notes"), collapse = ","), "\\n", sep = "")',
      'cat(paste(files$list(".", "**/*.txt"), collapse = ","), "\\n", sep = "")',
      'found <- files$search("needle")',
      'cat(sprintf("%s:%d:%s\\n", found$path, found$line, found$text), sep = "")',
      'cat(as.integer(files$read("notes/a.txt", binary = TRUE)[1]), "\\n", sep = "")',
      'files$delete("notes/b.txt")',
      'cat(tolower(files$exists("notes/b.txt")), "\\n", sep = "")',
      'cat(paste(files$list("notes"), collapse = ","), "\\n", sep = "")',
      'files$delete("notes", recursive = TRUE)',
      'cat(tolower(files$exists("notes")), "\\n", sep = "")',
    ].join('\n'),
    refusals: [
      {
        what: 'a missing file',
        code: 'files$read("missing.txt")',
        ename: 'oi_files_not_found',
        evalue: /no such file or directory: '.*missing\.txt'/,
      },
      { what: 'a file listed as a folder', code: 'files$list("plain.txt")', ename: 'oi_files_not_directory', evalue: /plain\.txt/ },
      { what: 'a folder read as a file', code: 'files$read("full")', ename: 'oi_files_is_directory', evalue: /full'/ },
      { what: 'a folder with files in it', code: 'files$delete("full")', ename: 'oi_files_not_empty', evalue: /recursive = TRUE/ },
      { what: 'bytes read as text', code: 'files$read("blob.bin")', ename: 'oi_files_not_text', evalue: /bad byte at offset 1/ },
    ],
  },
];

const available = LANGUAGES.filter((l) => l.available);

describe('files helpers', () => {
  const h = useHarness();

  it('resolve paths the same way in every language', async () => {
    const printed: Record<string, string> = {};
    for (const { language, paths } of available) {
      const result = await h.run(language, paths);
      expect(result.status, `${language}: ${result.forModel}`).toBe('done');
      printed[language] = stdoutOf(result);
    }
    const python = printed.python!;
    expect(python.split('\n').slice(0, 3)).toEqual([
      join(h.workspace, 'a.txt'),
      join(h.workspace, 'b.txt'),
      join(dirname(h.workspace), 'outside.txt'),
    ]);
    for (const [language, text] of Object.entries(printed)) expect(text, language).toBe(python);
    expect(Object.keys(printed).length).toBeGreaterThanOrEqual(2);
  });

  describe.each(available)('in $language', ({ language, paths, roundTrip, refusals }) => {
    /** The round trip's writes, up to data.json, again: kept this time, to be read from outside. */
    const writeAgain = roundTrip.slice(0, roundTrip.indexOf('\n', roundTrip.indexOf('data.json')));

    it('write, append, read, list, search and delete relative to the workspace, whatever the working folder', async () => {
      // The harness's workspace is shared by the languages: each starts from the same empty folders.
      for (const name of ['notes', 'elsewhere']) await rm(join(h.workspace, name), { recursive: true, force: true });
      const result = await h.run(language, roundTrip);
      expect(result.status, result.forModel).toBe('done');
      expect(stdoutOf(result).replace(/\r\n/g, '\n')).toBe(
        [
          'alpha',
          'needle here',
          'a.txt,b.txt,data.json,deep/,node_modules/', // folders end in /
          'notes/a.txt,notes/b.txt,notes/deep/c.txt', // node_modules is not searched or globbed
          // A folder's files before its subfolders' files, as os.walk gives them to Python's search.
          'notes/a.txt:2:needle here',
          'notes/deep/c.txt:2:needle two',
          '97',
          'false',
          'a.txt,data.json,deep/,node_modules/',
          'false',
          '',
        ].join('\n'),
      );
      expect(existsSync(join(h.workspace, 'notes'))).toBe(false);
      expect(existsSync(join(h.workspace, 'elsewhere', 'notes'))).toBe(false);
      // Written in the workspace, as text and as indented JSON, whatever the working folder.
      const again = await h.run(language, writeAgain);
      expect(again.status, again.forModel).toBe('done');
      expect(await readFile(join(h.workspace, 'notes', 'a.txt'), 'utf8')).toBe('alpha\nneedle here\n');
      expect(await readFile(join(h.workspace, 'notes', 'data.json'), 'utf8')).toBe('{\n  "k": [\n    1,\n    2\n  ]\n}\n');
    });

    it('fail with an error naming the path or the remedy, keep a folder with files in it, and the session lives on', async () => {
      await writeFile(join(h.workspace, 'plain.txt'), 'x');
      mkdirSync(join(h.workspace, 'full'), { recursive: true });
      await writeFile(join(h.workspace, 'full', 'inside'), 'x');
      await writeFile(join(h.workspace, 'blob.bin'), Buffer.from([0x61, 0xff, 0xfe]));
      await writeFile(join(h.workspace, 'locked.txt'), 'secret');
      await chmod(join(h.workspace, 'locked.txt'), 0);
      const asRoot = process.getuid?.() === 0; // root reads a file whatever its mode
      try {
        for (const refusal of refusals.filter((r) => !(asRoot && r.what === 'an unreadable file'))) {
          const result = await h.run(language, refusal.code);
          expect(result.status, `${refusal.what}: ${result.forModel}`).toBe('failed');
          const error = result.outputs.find((o) => o.output_type === 'error');
          expect(error, refusal.what).toMatchObject({
            ...(refusal.ename ? { ename: refusal.ename } : {}),
            evalue: expect.stringMatching(refusal.evalue),
          });
        }
        expect(existsSync(join(h.workspace, 'full', 'inside'))).toBe(true);
        expect((await h.run(language, paths)).status).toBe('done');
      } finally {
        for (const name of ['plain.txt', 'full', 'blob.bin', 'locked.txt'])
          await rm(join(h.workspace, name), { recursive: true, force: true });
      }
    });
  });
});
