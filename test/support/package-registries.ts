import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

// Packages to install without the network: a Python wheel built with the standard library, and an
// npm package packed with `npm pack` and served by a minimal registry on 127.0.0.1, so that
// `npm install <name>` resolves it exactly as it would from the public registry.

const PYTHON = '/usr/bin/python3';

function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env, timeout: 60_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${file} ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

/**
 * A virtual environment of Debian's Python without a pip copied into it: ensurepip's copy costs about
 * 4 CPU-seconds a venv, and where the test's pip is Debian's own anyway it buys nothing. With
 * `systemSitePackages`, `python -m pip` in it is Debian's pip, and installs into the venv (pip sees
 * sys.prefix); without, nothing can install into it — for an interpreter a test only runs.
 */
export async function venvWithoutOwnPip(dir: string, options: { systemSitePackages: boolean }): Promise<string> {
  const flags = options.systemSitePackages ? ['--system-site-packages'] : [];
  await run(PYTHON, ['-m', 'venv', '--without-pip', ...flags, dir], process.cwd());
  return join(dir, 'bin', 'python');
}

/** Builds `<name>-1.0-py3-none-any.whl` into `dir`, whose module `name` holds VALUE = value. */
export async function buildWheel(dir: string, name: string, value: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  const script = `
import base64, hashlib, sys, zipfile
name, value, out = sys.argv[1], sys.argv[2], sys.argv[3]
files = {
    f"{name}/__init__.py": f"VALUE = {value}\\n",
    f"{name}-1.0.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: 1.0\\n",
    f"{name}-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: oi-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = []
path = f"{out}/{name}-1.0-py3-none-any.whl"
with zipfile.ZipFile(path, "w") as whl:
    for arc, text in files.items():
        data = text.encode()
        whl.writestr(arc, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{arc},sha256={digest},{len(data)}")
    record.append(f"{name}-1.0.dist-info/RECORD,,")
    whl.writestr(f"{name}-1.0.dist-info/RECORD", "\\n".join(record) + "\\n")
print(path)
`;
  return (await run(PYTHON, ['-c', script, name, String(value), dir], dir)).trim();
}

export interface LocalRegistry {
  url: string;
  close(): Promise<void>;
}

/**
 * Packs a one-file package with `npm pack` and serves it as the only package of a registry; `scripts`
 * become its package.json scripts (an install script, as native packages have).
 */
export async function startNpmRegistry(dir: string, name: string, value: number, scripts?: Record<string, string>): Promise<LocalRegistry> {
  const source = join(dir, 'src');
  await mkdir(source, { recursive: true });
  await writeFile(
    join(source, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', main: 'index.js', license: 'MIT', ...(scripts ? { scripts } : {}) }),
  );
  await writeFile(join(source, 'index.js'), `module.exports = ${value};\n`);
  const packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', dir], source)) as Array<{ filename: string }>;
  const tarball = await readFile(join(dir, packed[0]?.filename ?? ''));
  const shasum = createHash('sha1').update(tarball).digest('hex');
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  let base = '';
  const server: Server = createServer((req, res) => {
    if (req.url === `/${name}`) {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          name,
          'dist-tags': { latest: '1.0.0' },
          versions: {
            '1.0.0': {
              name,
              version: '1.0.0',
              main: 'index.js',
              ...(scripts ? { scripts, hasInstallScript: true } : {}),
              dist: { tarball: `${base}/${name}/-/${name}-1.0.0.tgz`, shasum, integrity },
            },
          },
        }),
      );
    } else if (req.url === `/${name}/-/${name}-1.0.0.tgz`) {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(tarball);
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { url: `${base}/`, close: () => new Promise((r) => server.close(() => r())) };
}
