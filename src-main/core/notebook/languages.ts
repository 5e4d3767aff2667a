import { Languages } from '../exec';
// What the notebook needs to know about each language: the Jupyter kernel that runs it as the main
// language, and the IPython cell magic that runs it inside a Python notebook. A name is first made
// canonical by the execution engine (canonicalLanguage asks its registry), so a language means the
// same thing in a notebook as in a run; the aliases below are this table's own, further spellings
// notebooks and fences use (ipython, console, rscript…), matched after the engine's.

interface KernelInfo {
  kernelspec: { name: string; display_name: string; language: string };
  language_info: Record<string, unknown> & { name: string };
}

interface LanguageEntry {
  /** The app's canonical name. */
  name: string;
  aliases: string[];
  /** First line that makes IPython run a cell of this language. */
  magic: string;
  kernel: KernelInfo;
}

/** An entry whose kernel, kernel language and language_info name are all its own name. */
function ownKernel(name: string, aliases: string[], magic: string, displayName: string, info: Record<string, unknown>): LanguageEntry {
  return {
    name,
    aliases,
    magic,
    kernel: { kernelspec: { name, display_name: displayName, language: name }, language_info: { name, ...info } },
  };
}

const LANGUAGES: LanguageEntry[] = [
  {
    name: 'python',
    aliases: ['py', 'python3', 'ipython'],
    magic: '',
    kernel: {
      kernelspec: { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' },
      language_info: {
        name: 'python',
        codemirror_mode: { name: 'ipython', version: 3 },
        file_extension: '.py',
        mimetype: 'text/x-python',
        nbconvert_exporter: 'python',
        pygments_lexer: 'ipython3',
      },
    },
  },
  {
    name: 'shell',
    aliases: ['bash', 'sh', 'console', 'terminal'],
    magic: '%%bash',
    kernel: {
      kernelspec: { name: 'bash', display_name: 'Bash', language: 'bash' },
      language_info: { name: 'bash', codemirror_mode: 'shell', file_extension: '.sh', mimetype: 'text/x-sh' },
    },
  },
  // zsh cells use zsh syntax that bash refuses: Jupyter runs them through zsh too.
  ownKernel('zsh', [], '%%script zsh', 'Zsh', { codemirror_mode: 'shell', file_extension: '.zsh', mimetype: 'text/x-sh' }),
  ownKernel('javascript', ['js', 'node', 'nodejs'], '%%script node', 'JavaScript (Node.js)', {
    file_extension: '.js',
    mimetype: 'application/javascript',
  }),
  ownKernel('ruby', ['rb'], '%%ruby', 'Ruby', { file_extension: '.rb', mimetype: 'application/x-ruby' }),
  ownKernel('perl', ['pl'], '%%perl', 'Perl', { file_extension: '.pl', mimetype: 'text/x-perl' }),
  {
    name: 'r',
    aliases: ['rscript'],
    // %%script feeds the cell on stdin; Rscript reads a script from stdin when given '-'.
    magic: '%%script Rscript -',
    kernel: {
      kernelspec: { name: 'ir', display_name: 'R', language: 'R' },
      language_info: { name: 'R', file_extension: '.r', mimetype: 'text/x-r-source', codemirror_mode: 'r' },
    },
  },
  ownKernel('powershell', ['pwsh', 'ps1'], '%%script pwsh -NoProfile -Command -', 'PowerShell', {
    file_extension: '.ps1',
    mimetype: 'text/x-sh',
  }),
  ownKernel('applescript', ['osascript'], '%%script osascript', 'AppleScript', {
    file_extension: '.applescript',
    mimetype: 'text/x-applescript',
  }),
  ownKernel('html', ['htm'], '%%html', 'HTML', { file_extension: '.html', mimetype: 'text/html' }),
];

function entryFor(language: string): LanguageEntry | undefined {
  const key = canonicalLanguage(language);
  return LANGUAGES.find((entry) => entry.name === key || entry.aliases.includes(key));
}

/** The app's canonical name for a language or alias; unknown languages keep their (lower-cased) name. */
export function canonicalLanguage(language: string): string {
  return Languages.findLanguage(language)?.name ?? language.trim().toLowerCase();
}

/**
 * The language a cell's code is for Jupyter: a `shell` cell that ran in zsh was written for zsh (the
 * model is told which shell it gets), so it goes to zsh, not bash. Cells naming their shell keep it.
 */
export function notebookLanguage(language: string, shell: 'bash' | 'zsh' | undefined): string {
  return shell === 'zsh' && Languages.GENERIC_SHELL_NAMES.includes(language.trim().toLowerCase()) ? 'zsh' : language;
}

export function kernelFor(language: string): KernelInfo {
  const entry = entryFor(language);
  if (entry) return structuredClone(entry.kernel);
  const name = canonicalLanguage(language) || 'unknown';
  return { kernelspec: { name, display_name: name, language: name }, language_info: { name } };
}

/** The magic line that runs `language` in a Python kernel ('' for Python itself). */
export function magicFor(language: string): string {
  const entry = entryFor(language);
  if (entry) return entry.magic;
  return `%%script ${language.trim()}`;
}

// Interpreters named after %%script, mapped back to languages.
const INTERPRETERS: Record<string, string> = {
  bash: 'shell',
  sh: 'shell',
  zsh: 'zsh',
  node: 'javascript',
  nodejs: 'javascript',
  python: 'python',
  python3: 'python',
  ruby: 'ruby',
  rscript: 'r',
  r: 'r',
  pwsh: 'powershell',
  powershell: 'powershell',
  osascript: 'applescript',
};

// IPython cell magics that run a language the app has a session for. Others stay Python, where
// IPython runs them as Jupyter does: %%time, %%capture, %%writefile…, %%javascript and %%js (scripts
// for the browser, not Node), %%python3 (a separate process, not the session), %%perl and %%script
// with programs the app has no session for (run through %%script semantics).
const LANGUAGE_MAGICS: Record<string, string> = {
  bash: 'shell',
  sh: 'shell',
  ruby: 'ruby',
  html: 'html',
};

/**
 * The language a Python-kernel cell really runs, read from its leading cell magic, the code without
 * the magic line, and that line as written (with its line break). Only a magic that says nothing but the language counts (`%%bash`,
 * `%%script node`, or exactly the line export writes, like `%%script Rscript -`): with options
 * (`%%bash --out o`) the cell stays Python, so IPython keeps them. Cells without one stay Python.
 */
export function languageFromMagic(source: string): { language: string; code: string; magic: string } | null {
  const match = /^%%([A-Za-z0-9_]+)([^\n]*)(?:\n|$)/.exec(source);
  if (!match) return null;
  const name = (match[1] ?? '').toLowerCase();
  const args = (match[2] ?? '').trim();
  const code = source.slice(match[0].length);
  let language: string | undefined;
  if (name === 'script') {
    const [program = '', ...rest] = args.split(/\s+/);
    const interpreter = (program.split('/').pop() ?? '').toLowerCase();
    language = INTERPRETERS[interpreter];
    if (!language || language === 'python' || (rest.length > 0 && magicFor(language) !== `%%script ${args}`)) return null;
  } else {
    language = LANGUAGE_MAGICS[name];
    if (!language || args !== '') return null;
  }
  return { language, code, magic: match[0] };
}
