import path from 'node:path';

// What a file is, by its extension: enough to pick a preview and a highlighter. Content sniffing
// (a NUL byte means binary) covers files without a known extension.

const IMAGE_MIME: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  // Shown through <img>, where an SVG's scripts never run.
  '.svg': 'image/svg+xml',
  '.avif': 'image/avif',
};

const LANGUAGE: Record<string, string> = {
  '.py': 'python',
  '.pyw': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.sh': 'shell',
  '.bash': 'shell',
  '.zsh': 'shell',
  '.json': 'json',
  '.html': 'html',
  '.htm': 'html',
  '.xml': 'html',
  '.css': 'css',
  '.md': 'markdown',
  '.r': 'r',
  '.rb': 'ruby',
  '.ps1': 'powershell',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.go': 'go',
  '.rs': 'rust',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.toml': 'toml',
  '.sql': 'sql',
};

const OTHER_MIME: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.ipynb': 'application/x-ipynb+json',
  '.json': 'application/json',
  '.html': 'text/html',
  '.md': 'text/markdown',
};

export function imageMime(file: string): string | null {
  return IMAGE_MIME[path.extname(file).toLowerCase()] ?? null;
}

export function languageOf(file: string): string {
  return LANGUAGE[path.extname(file).toLowerCase()] ?? 'text';
}

export function mimeOf(file: string): string {
  const ext = path.extname(file).toLowerCase();
  return IMAGE_MIME[ext] ?? OTHER_MIME[ext] ?? (LANGUAGE[ext] ? 'text/plain' : 'application/octet-stream');
}

export function isNotebook(file: string): boolean {
  return path.extname(file).toLowerCase() === '.ipynb';
}

/** A NUL byte in the first block is the usual sign of a binary file (what git and grep use too). */
export function looksBinary(head: Uint8Array): boolean {
  return head.includes(0);
}
