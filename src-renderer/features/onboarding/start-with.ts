import type { KeyProvider, ModelChoice } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { useComposer } from '../../state/composer-store';

/**
 * The one step every way in ends with: save the key when one was typed, make the choice the model
 * for new conversations, close the first-run screen and put the cursor in the message box. Returns
 * why it failed, or null.
 */
export async function startWith(choice: ModelChoice, key?: { provider: KeyProvider; value: string }): Promise<string | null> {
  const app = useApp.getState();
  try {
    if (key) await bridge['keys.set']({ provider: key.provider, key: key.value });
  } catch (err) {
    return plainMessage(err);
  }
  const saved = await app.updateSettings(choice);
  if (!saved) {
    const reason = useApp.getState().error ?? 'the settings were not saved';
    app.dismissError();
    return reason.replace(/^settings\.set: /, '');
  }
  app.setOnboarding(false);
  useComposer.getState().focusComposer();
  return null;
}
