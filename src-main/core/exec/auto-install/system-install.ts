import { delimiter } from 'node:path';
import { which } from '../languages/find-runtime';

// A missing command-line program, as a package of the system's package manager. This is only ever
// proposed: the command is shown as it will run (with sudo when root is needed) and runs only after
// the user approves it, with `sudo -n` so it fails with a clear message rather than waiting for a
// password nobody can type.

export type SystemManager = 'apt' | 'dnf' | 'pacman' | 'brew' | 'winget';

export interface SystemInstall {
  manager: SystemManager;
  package: string;
  /** The command as the user would type it in a terminal. */
  command: string;
  /** What runs on approval: an absolute path, found on `path`. */
  file: string;
  args: string[];
  /** The PATH it was found on (absolute entries only, none sandboxed code can write): it runs with it. */
  path: string;
}

/** Commands whose package is named differently; a command missing here is looked up under its own name. */
const PACKAGES: Readonly<Record<string, Partial<Record<SystemManager, string>>>> = {
  convert: { apt: 'imagemagick', dnf: 'ImageMagick', pacman: 'imagemagick', brew: 'imagemagick', winget: 'ImageMagick.ImageMagick' },
  magick: { apt: 'imagemagick', dnf: 'ImageMagick', pacman: 'imagemagick', brew: 'imagemagick', winget: 'ImageMagick.ImageMagick' },
  identify: { apt: 'imagemagick', dnf: 'ImageMagick', pacman: 'imagemagick', brew: 'imagemagick' },
  ffmpeg: { apt: 'ffmpeg', dnf: 'ffmpeg', pacman: 'ffmpeg', brew: 'ffmpeg', winget: 'Gyan.FFmpeg' },
  ffprobe: { apt: 'ffmpeg', dnf: 'ffmpeg', pacman: 'ffmpeg', brew: 'ffmpeg', winget: 'Gyan.FFmpeg' },
  jq: { apt: 'jq', dnf: 'jq', pacman: 'jq', brew: 'jq', winget: 'jqlang.jq' },
  rg: { apt: 'ripgrep', dnf: 'ripgrep', pacman: 'ripgrep', brew: 'ripgrep', winget: 'BurntSushi.ripgrep.MSVC' },
  fd: { apt: 'fd-find', dnf: 'fd-find', pacman: 'fd', brew: 'fd', winget: 'sharkdp.fd' },
  git: { apt: 'git', dnf: 'git', pacman: 'git', brew: 'git', winget: 'Git.Git' },
  curl: { apt: 'curl', dnf: 'curl', pacman: 'curl', brew: 'curl', winget: 'cURL.cURL' },
  wget: { apt: 'wget', dnf: 'wget', pacman: 'wget', brew: 'wget', winget: 'JernejSimoncic.Wget' },
  tree: { apt: 'tree', dnf: 'tree', pacman: 'tree', brew: 'tree' },
  unzip: { apt: 'unzip', dnf: 'unzip', pacman: 'unzip', brew: 'unzip' },
  zip: { apt: 'zip', dnf: 'zip', pacman: 'zip', brew: 'zip' },
  '7z': { apt: 'p7zip-full', dnf: 'p7zip', pacman: 'p7zip', brew: 'p7zip', winget: '7zip.7zip' },
  pandoc: { apt: 'pandoc', dnf: 'pandoc', pacman: 'pandoc', brew: 'pandoc', winget: 'JohnMacFarlane.Pandoc' },
  pdftotext: { apt: 'poppler-utils', dnf: 'poppler-utils', pacman: 'poppler', brew: 'poppler' },
  pdftoppm: { apt: 'poppler-utils', dnf: 'poppler-utils', pacman: 'poppler', brew: 'poppler' },
  tesseract: { apt: 'tesseract-ocr', dnf: 'tesseract', pacman: 'tesseract', brew: 'tesseract', winget: 'UB-Mannheim.TesseractOCR' },
  gs: { apt: 'ghostscript', dnf: 'ghostscript', pacman: 'ghostscript', brew: 'ghostscript' },
  dot: { apt: 'graphviz', dnf: 'graphviz', pacman: 'graphviz', brew: 'graphviz', winget: 'Graphviz.Graphviz' },
  sqlite3: { apt: 'sqlite3', dnf: 'sqlite', pacman: 'sqlite', brew: 'sqlite', winget: 'SQLite.SQLite' },
  gcc: { apt: 'build-essential', dnf: 'gcc', pacman: 'base-devel', brew: 'gcc' },
  'g++': { apt: 'build-essential', dnf: 'gcc-c++', pacman: 'base-devel', brew: 'gcc' },
  make: { apt: 'build-essential', dnf: 'make', pacman: 'base-devel', brew: 'make' },
  node: { apt: 'nodejs', dnf: 'nodejs', pacman: 'nodejs', brew: 'node', winget: 'OpenJS.NodeJS.LTS' },
  npm: { apt: 'npm', dnf: 'npm', pacman: 'npm', brew: 'node', winget: 'OpenJS.NodeJS.LTS' },
  java: { apt: 'default-jre', dnf: 'java-latest-openjdk', pacman: 'jre-openjdk', brew: 'openjdk', winget: 'Microsoft.OpenJDK.21' },
  javac: { apt: 'default-jdk', dnf: 'java-latest-openjdk-devel', pacman: 'jdk-openjdk', brew: 'openjdk', winget: 'Microsoft.OpenJDK.21' },
  Rscript: { apt: 'r-base', dnf: 'R', pacman: 'r', brew: 'r', winget: 'RProject.R' },
  ruby: { apt: 'ruby', dnf: 'ruby', pacman: 'ruby', brew: 'ruby', winget: 'RubyInstallerTeam.Ruby.3.3' },
  exiftool: {
    apt: 'libimage-exiftool-perl',
    dnf: 'perl-Image-ExifTool',
    pacman: 'perl-image-exiftool',
    brew: 'exiftool',
    winget: 'OliverBetz.ExifTool',
  },
  xmllint: { apt: 'libxml2-utils', dnf: 'libxml2', pacman: 'libxml2', brew: 'libxml2' },
  nc: { apt: 'netcat-openbsd', dnf: 'nmap-ncat', pacman: 'openbsd-netcat', brew: 'netcat' },
  sox: { apt: 'sox', dnf: 'sox', pacman: 'sox', brew: 'sox' },
  'yt-dlp': { apt: 'yt-dlp', dnf: 'yt-dlp', pacman: 'yt-dlp', brew: 'yt-dlp', winget: 'yt-dlp.yt-dlp' },
  htop: { apt: 'htop', dnf: 'htop', pacman: 'htop', brew: 'htop' },
  'python3-tk': { apt: 'python3-tk', dnf: 'python3-tkinter', pacman: 'tk', brew: 'python-tk' },
  'python3-venv': { apt: 'python3-venv' },
};

/** The manager that installs system packages here, or null. */
export async function systemManager(
  path: string,
  platform: NodeJS.Platform = process.platform,
): Promise<{ manager: SystemManager; program: string } | null> {
  const candidates: Array<[SystemManager, string]> =
    platform === 'darwin'
      ? [['brew', 'brew']]
      : platform === 'win32'
        ? [['winget', 'winget']]
        : [
            ['apt', 'apt-get'],
            ['dnf', 'dnf'],
            ['pacman', 'pacman'],
            ['brew', 'brew'],
          ];
  const extra = platform === 'darwin' ? ':/opt/homebrew/bin:/usr/local/bin' : '';
  for (const [manager, name] of candidates) {
    const program = await which(name, path + extra);
    if (program) return { manager, program };
  }
  return null;
}

/**
 * The install for a missing command (or a system package named directly, like python3-tk), or null
 * when this machine has no known manager or the name does not look like a package.
 */
export async function systemInstallFor(name: string, path: string, isRoot = process.getuid?.() === 0): Promise<SystemInstall | null> {
  if (!/^[A-Za-z0-9][A-Za-z0-9+._-]*$/.test(name)) return null;
  const found = await systemManager(path);
  if (!found) return null;
  const sudo = isRoot ? null : await which('sudo', `${path}${delimiter}/usr/bin${delimiter}/bin`);
  if (!isRoot && !sudo && found.manager !== 'brew' && found.manager !== 'winget') return null;
  const pkg = PACKAGES[name]?.[found.manager] ?? (found.manager === 'winget' ? null : name);
  if (!pkg) return null;
  const root = (args: string[]): { file: string; args: string[]; shown: string } =>
    isRoot || !sudo
      ? { file: found.program, args, shown: [found.manager === 'apt' ? 'apt-get' : found.manager, ...args].join(' ') }
      : {
          file: sudo,
          args: ['-n', found.program, ...args],
          shown: ['sudo', found.manager === 'apt' ? 'apt-get' : found.manager, ...args].join(' '),
        };
  const plan =
    found.manager === 'apt'
      ? root(['install', '-y', pkg])
      : found.manager === 'dnf'
        ? root(['install', '-y', pkg])
        : found.manager === 'pacman'
          ? root(['-S', '--noconfirm', pkg])
          : found.manager === 'brew'
            ? { file: found.program, args: ['install', pkg], shown: `brew install ${pkg}` }
            : {
                file: found.program,
                args: ['install', '--id', pkg, '-e', '--accept-source-agreements', '--accept-package-agreements'],
                shown: `winget install --id ${pkg} -e`,
              };
  return { manager: found.manager, package: pkg, command: plan.shown, file: plan.file, args: plan.args, path };
}
