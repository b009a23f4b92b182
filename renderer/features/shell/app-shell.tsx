import { lazy, Suspense } from 'react';
import { useBerth } from '../../store';
import type { RendererTransport } from '../../transport';
import { ChatView } from '../chat/chat-view';
import { ConfigBanner } from '../config/config-banner';
import { PaneShortcuts, usePane } from './panes';
import { Sidebar } from './sidebar';
import { ConnectionBanner, TopBar } from './top-bar';

// The first screen is the chat. The other views and the dialogs that open on request load as
// separate chunks, so the JavaScript parsed before the first paint stays small; they are fetched
// from the local host (or the app's own files) in a few milliseconds when first shown.
const ServersView = lazy(async () => ({ default: (await import('../servers/servers-view')).ServersView }));
const DiscoverView = lazy(async () => ({ default: (await import('../discover/discover-view')).DiscoverView }));
const TasksView = lazy(async () => ({ default: (await import('../tasks/tasks-view')).TasksView }));
const InboxView = lazy(async () => ({ default: (await import('../events/inbox-view')).InboxView }));
const RootsView = lazy(async () => ({ default: (await import('../roots/roots-view')).RootsView }));
const LogsView = lazy(async () => ({ default: (await import('../logs/logs-view')).LogsView }));
const SettingsView = lazy(async () => ({ default: (await import('../settings/settings-view')).SettingsView }));
const ServerFormDialog = lazy(async () => ({
  default: (await import('../servers/server-form-dialog')).ServerFormDialog,
}));
const ConfigEditorDialog = lazy(async () => ({
  default: (await import('../config/config-editor')).ConfigEditorDialog,
}));
const ImportDialog = lazy(async () => ({ default: (await import('../config-import/import-dialog')).ImportDialog }));
// Requests waiting for the person (consent, elicitation, sampling) and toasts are kept in the
// store, so whatever arrives before these chunks have loaded is shown once they have.
const PendingDialogs = lazy(async () => ({ default: (await import('../pending/pending-dialogs')).PendingDialogs }));
const Toasts = lazy(async () => ({ default: (await import('./toasts')).Toasts }));
const ExportDialog = lazy(async () => ({ default: (await import('../config-import/export-dialog')).ExportDialog }));

export function AppShell({ transport }: { transport: RendererTransport }) {
  const view = useBerth((s) => s.view);
  const sidebar = usePane('sidebar');
  return (
    <>
      <PaneShortcuts />
      <div className={sidebar.collapsed ? 'app sidebar-collapsed' : 'app'}>
        <Sidebar collapsed={sidebar.collapsed} />
        <main className="main">
          <TopBar />
          <ConnectionBanner transport={transport} />
          <ConfigBanner />
          <div className="view">
            <Suspense fallback={null}>
              {view === 'chat' ? (
                <ChatView />
              ) : view === 'servers' ? (
                <ServersView />
              ) : view === 'discover' ? (
                <DiscoverView />
              ) : view === 'tasks' ? (
                <TasksView />
              ) : view === 'inbox' ? (
                <InboxView />
              ) : view === 'roots' ? (
                <RootsView />
              ) : view === 'logs' ? (
                <LogsView />
              ) : (
                <SettingsView />
              )}
            </Suspense>
          </div>
        </main>
      </div>
      <Suspense fallback={null}>
        <ServerFormDialog />
        <ConfigEditorDialog />
        <ImportDialog />
        <ExportDialog />
        <PendingDialogs />
        <Toasts />
      </Suspense>
    </>
  );
}
