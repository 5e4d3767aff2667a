import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defaultSettings, type Settings } from '@contract';
import { CheckpointService } from '../../../../src-main/core/checkpoints/checkpoint-service';
import { useTempDirs } from '../../../support/temp-dirs';

/**
 * A checkpoint service of its own per call, in a fresh folder: `ws/` the workspace, `data/` the data
 * folder, removed after each test. Register it at the top of the file (useTempDirs says why).
 */
export function useServiceSetup(prefix: string) {
  const temp = useTempDirs(prefix);
  return (settings: Partial<Settings> = {}) => {
    const top = temp();
    const workspace = path.join(top, 'ws');
    mkdirSync(workspace);
    const dataDir = path.join(top, 'data');
    const service = new CheckpointService({ dataDir, settings: () => ({ ...defaultSettings, ...settings }) });
    return { top, workspace, dataDir, service, conv: { id: 'conv1', workspace } };
  };
}
