import { useBerth } from '../../store';
import type { RendererTransport } from '../../transport';
import { ChatView } from '../chat/chat-view';
import { ConfigBanner } from '../config/config-banner';
import { ConfigEditorDialog } from '../config/config-editor';
import { ExportDialog } from '../config-import/export-dialog';
import { ImportDialog } from '../config-import/import-dialog';
import { LogsView } from '../logs/logs-view';
import { ServerFormDialog } from '../servers/server-form-dialog';
import { PendingDialogs } from '../pending/pending-dialogs';
import { RootsView } from '../roots/roots-view';
import { ServersView } from '../servers/servers-view';
import { SettingsView } from '../settings/settings-view';
import { Sidebar } from './sidebar';
import { Toasts } from './toasts';
import { ConnectionBanner, TopBar } from './top-bar';

export function AppShell({ transport }: { transport: RendererTransport }) {
  const view = useBerth((s) => s.view);
  return (
    <>
      <div className="app">
        <Sidebar />
        <main className="main">
          <TopBar />
          <ConnectionBanner transport={transport} />
          <ConfigBanner />
          <div className="view">
            {view === 'chat' ? <ChatView /> : view === 'servers' ? <ServersView /> : view === 'roots' ? <RootsView /> : view === 'logs' ? <LogsView /> : <SettingsView />}
          </div>
        </main>
      </div>
      <ServerFormDialog />
      <ConfigEditorDialog />
      <ImportDialog />
      <ExportDialog />
      <PendingDialogs />
      <Toasts />
    </>
  );
}
