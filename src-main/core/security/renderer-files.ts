import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Reads a file of the built renderer; refuses anything that resolves outside its folder. */
export async function readRendererFile(root: string, urlPath: string): Promise<{ body: Buffer; type: string } | null> {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (rel.includes('\0')) return null;
  if (rel === '/' || rel === '') rel = '/index.html';
  const realRoot = await realpath(root);
  const candidate = path.resolve(realRoot, '.' + path.posix.normalize(rel));
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    return null;
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
  try {
    return { body: await readFile(real), type: TYPES[path.extname(real)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
