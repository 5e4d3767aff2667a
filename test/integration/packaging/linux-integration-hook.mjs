// electron-builder's afterPack hook for the packaging test's one build (packaged-build.ts): writes what
// the .deb and the AppImage would carry for the desktop — the desktop file, the MIME type file and the
// icon set — computed by electron-builder's own LinuxTargetHelper from the project's configuration,
// plus the configuration those targets read (deb's recommends, the file associations macOS and
// Windows register). Those targets need tools downloaded from the network (fpm, appimagetool); this
// is everything they take from the project.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export default async function writeLinuxIntegration(context) {
  const { LinuxTargetHelper } = require('app-builder-lib/out/targets/LinuxTargetHelper');
  const { packager } = context;
  const helper = new LinuxTargetHelper(packager);
  const mimeFile = await helper.mimeTypeFiles;
  const icons = await helper.icons;
  const integration = {
    desktopFileName: `${helper.getDesktopFileName()}.desktop`,
    desktopEntry: await helper.computeDesktopEntry(packager.platformSpecificBuildOptions),
    mimeXml: mimeFile ? readFileSync(mimeFile, 'utf8') : null,
    icons: icons.map((icon) => ({ size: icon.size, file: icon.file })),
    executableName: packager.executableName,
    deb: packager.config.deb ?? null,
    fileAssociations: packager.fileAssociations,
  };
  writeFileSync(path.join(context.outDir, 'linux-integration.json'), JSON.stringify(integration, null, 2));
}
