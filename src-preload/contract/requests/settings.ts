import { Settings, SettingsPatch } from '../settings';
import { Empty, type RequestSpec } from './shared';

export const settingsRequests = {
  'settings.get': { input: Empty, output: Settings },
  'settings.set': { input: SettingsPatch, output: Settings },
} as const satisfies Record<string, RequestSpec>;
