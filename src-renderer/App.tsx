import { Suspense, useEffect } from 'react';
import { ChatScreen } from './features/chat/ChatScreen';
import { Sidebar } from './features/conversations/Sidebar';
import { ShortcutsDialog } from './features/keyboard/ShortcutsDialog';
import { AutoRunConfirm } from './features/sandbox/AutoRunConfirm';
import { useGlobalShortcuts } from './features/keyboard/use-global-shortcuts';
import { Banners } from './features/layout/Banners';
import { McpApprovalCards } from './features/mcp/McpApprovalCards';
import { LIMITS, clamp, usePanels } from './features/layout/panel-sizes';
import { ResizeHandle } from './features/layout/ResizeHandle';
import { useNarrow } from './features/layout/use-narrow';
import { useTheme } from './features/layout/use-theme';
import { NotebookBar } from './features/notebooks/NotebookBar';
import { InstructionsLine } from './features/instructions/InstructionsLine';
import { FilesDrawer } from './features/files/FilesDrawer';
import { RightPanel } from './features/files/RightPanel';
import { TopBar } from './features/topbar/TopBar';
import { useApp } from './state/app-store';
import { useWorkspace } from './state/workspace-store';

import { lazyNamed } from './features/common/lazy-named';
import { markMounted } from './startup';

// Screens the window does not start on load on demand, each its own chunk (electron.vite.config.ts):
// the first paint parses only the shell, the conversation list and the message box.
const SettingsScreen = lazyNamed(() => import('./features/settings/SettingsScreen'), 'SettingsScreen');
const KeysScreen = lazyNamed(() => import('./features/keys/KeysScreen'), 'KeysScreen');
const SchedulesScreen = lazyNamed(() => import('./features/schedules/SchedulesScreen'), 'SchedulesScreen');
const FirstRun = lazyNamed(() => import('./features/onboarding/FirstRun'), 'FirstRun');

export function App() {
  const screen = useApp((s) => s.screen);
  const theme = useApp((s) => s.settings?.theme);
  const onboarding = useApp((s) => s.onboarding);
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const panels = usePanels();

  // The state is loading already (startup.ts); the page is marked ready once this has mounted too.
  useEffect(markMounted, []);
  useEffect(() => {
    void useWorkspace.getState().open(conversationId);
  }, [conversationId]);
  useTheme(theme);
  useGlobalShortcuts();

  // A narrow window gives the files panel no column: it opens over the chat (FilesDrawer).
  const narrow = useNarrow();
  const column = panels.rightOpen && !narrow;
  const columns = [`${panels.sidebar}px`, '5px', 'minmax(360px, 1fr)', ...(column ? ['5px', `${panels.rightPanel}px`] : [])].join(' ');
  return (
    <div className="app" style={{ gridTemplateColumns: columns }}>
      <Sidebar />
      <ResizeHandle
        orientation="vertical"
        label="Resize the conversation list"
        value={panels.sidebar}
        min={LIMITS.sidebar[0]}
        max={LIMITS.sidebar[1]}
        onResize={(delta, start) => panels.resize({ sidebar: clamp(start + delta, LIMITS.sidebar) })}
      />
      <main className="main">
        <TopBar />
        <Banners />
        <McpApprovalCards />
        <NotebookBar />
        {screen === 'chat' && <InstructionsLine />}
        <Suspense fallback={<div className="screen muted">Loading…</div>}>
          {screen === 'settings' ? (
            <SettingsScreen />
          ) : screen === 'keys' ? (
            <KeysScreen />
          ) : screen === 'schedules' ? (
            <SchedulesScreen />
          ) : (
            <ChatScreen />
          )}
        </Suspense>
        {narrow && panels.drawerOpen && <FilesDrawer />}
      </main>
      {column && (
        <>
          <ResizeHandle
            orientation="vertical"
            label="Resize the files panel"
            value={panels.rightPanel}
            min={LIMITS.rightPanel[0]}
            max={LIMITS.rightPanel[1]}
            onResize={(delta, start) => panels.resize({ rightPanel: clamp(start - delta, LIMITS.rightPanel) })}
          />
          <RightPanel />
        </>
      )}
      {onboarding && (
        <Suspense fallback={null}>
          <FirstRun />
        </Suspense>
      )}
      <ShortcutsDialog />
      <AutoRunConfirm />
    </div>
  );
}
