import path from 'node:path';

/** Where the desktop shell finds its parts, in the repository (`npm start`) and in the packaged app. */
export interface ShellPaths {
  /** out/: main, preload and renderer as built. */
  outDir: string;
  /** The folder holding out/ and package.json: the repository, or app.asar in the packaged app. */
  packageRoot: string;
  /**
   * The runners, shell scripts and helpers child processes execute: they cannot live inside app.asar
   * (no process but Electron's reads it), so electron-builder's extraResources puts them beside it,
   * in <resources>/resources (electron-builder.yml).
   */
  resourcesDir: string;
}

/**
 * `mainDir` is the folder of the built main (out/main); `resourcesPath` is Electron's
 * process.resourcesPath (<app>/resources on Linux and Windows, <app>.app/Contents/Resources on macOS).
 * test/integration/packaging/packaged-app.test.ts checks these against electron-builder's layout.
 */
export function shellPaths(mainDir: string, packaged: { isPackaged: boolean; resourcesPath: string }): ShellPaths {
  const outDir = path.resolve(mainDir, '..');
  const packageRoot = path.resolve(outDir, '..');
  const resourcesDir = packaged.isPackaged ? path.join(packaged.resourcesPath, 'resources') : path.join(packageRoot, 'resources');
  return { outDir, packageRoot, resourcesDir };
}
