import type { HandlerTable } from '../bridge/handler-table';
import { withProviderMemory } from '../settings/provider-memory';
import type { AppContext } from './app-context';

export const settingsHandlers = ({ settings }: AppContext): Pick<HandlerTable, 'settings.get' | 'settings.set'> => ({
  'settings.get': async () => settings.get(),
  'settings.set': async (patch) => settings.update(withProviderMemory(settings.get(), patch)),
});
