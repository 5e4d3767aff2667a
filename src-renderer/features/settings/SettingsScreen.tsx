import { Fragment } from 'react';
import type { SettingsPatch } from '@contract';
import { useApp } from '../../state/app-store';
import { appliesTo, SECTIONS } from './settings-fields';
import { ProviderKeyField } from './ProviderKeyField';
import { SettingField } from './SettingField';
import { McpServersSection } from '../mcp/McpServersSection';
import { McpClientsSection } from '../mcp/McpClientsSection';
import { SkillsSection } from './SkillsSection';
import { MemorySection } from './MemorySection';
import { ComputerSection } from '../computer/ComputerSection';
import { UpdatesStatus } from './UpdatesStatus';
import { ProfilesSection } from './ProfilesSection';

/** Every setting, validated by the contract's schema and applied as soon as it is accepted. */
export function SettingsScreen() {
  const settings = useApp((s) => s.settings);
  const updateSettings = useApp((s) => s.updateSettings);
  const dismissError = useApp((s) => s.dismissError);
  const storage = useApp((s) => s.secretStorage);
  const storageWords =
    storage === 'memory' ? 'kept in memory until the app quits: no OS keychain is available' : 'saved in the OS keychain';
  if (!settings) return <div className="screen muted">Loading settings…</div>;
  const save = async (patch: SettingsPatch): Promise<string | null> => {
    if ((await updateSettings(patch)) !== null) return null;
    // Main refused it (a rule spanning fields, such as the thinking budget against the model's output
    // limit): the reason goes under the field the user just changed, not into the app-wide banner.
    const reason = useApp.getState().error ?? 'not saved';
    dismissError();
    return reason.replace(/^settings\.set: /, '');
  };
  return (
    <div className="screen settings-screen" data-testid="settings-screen">
      <h1>Settings</h1>
      <p className="muted small">Changes apply immediately and are saved. API keys are on their own screen ({storageWords}).</p>
      {SECTIONS.map((section) => (
        <section key={section.title} className="settings-section" aria-labelledby={`section-${section.title}`}>
          <h2 id={`section-${section.title}`}>{section.title}</h2>
          {section.fields
            .filter((field) => appliesTo(field, settings.provider))
            .map((field) => (
              <Fragment key={field.id}>
                <SettingField field={field} settings={settings} save={save} />
                {/* The key the chosen provider needs, right where the provider is chosen. */}
                {field.id === 'baseUrl' && <ProviderKeyField settings={settings} />}
              </Fragment>
            ))}
          {section.title === 'Updates' && <UpdatesStatus />}
        </section>
      ))}
      <McpServersSection />
      <McpClientsSection />
      <SkillsSection />
      <MemorySection />
      <ComputerSection />
      <ProfilesSection />
    </div>
  );
}
