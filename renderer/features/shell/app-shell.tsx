import { useBerth } from '../../store';
import type { RendererTransport } from '../../transport';
import { ConfigBanner } from '../config/config-banner';
import { ConfigEditorDialog } from '../config/config-editor';
import { LogsView } from '../logs/logs-view';
import { ServerFormDialog } from '../servers/server-form-dialog';
import { ServersView } from '../servers/servers-view';
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
          <div className="view">{view === 'servers' ? <ServersView /> : <LogsView />}</div>
        </main>
      </div>
      <ServerFormDialog />
      <ConfigEditorDialog />
      <Toasts />
    </>
  );
}
