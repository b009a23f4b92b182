import type { StateCreator } from 'zustand';
import type { MethodOutput } from '../../shared/contract';
import type { AppInfo, ConfigStatus, LogEntry, LogLevel, ServerConfigInput, ServerState } from '../../shared/domain';
import type { Failure, Result } from '../../shared/result';
import type { ConnectionStatus, RendererTransport } from '../transport/connection';

/** A log entry plus its precomputed lowercase search text (filtering 200k lines must stay fast). */
export type LogRow = LogEntry & { readonly haystack: string };

export interface ServersSlice {
  /** Host-owned: replaced only by snapshots and `servers.*` events. */
  servers: Record<string, ServerState>;
  serversLoaded: boolean;
  applyServersSnapshot(list: ServerState[]): void;
  applyServerChanged(state: ServerState): void;
  applyServerRemoved(name: string): void;
  loadServers(): Promise<void>;
  startServer(name: string): Promise<void>;
  stopServer(name: string): Promise<void>;
  restartServer(name: string): Promise<void>;
  setServerEnabled(name: string, enabled: boolean): Promise<void>;
  setServerLogLevel(name: string, level: LogLevel): Promise<void>;
  /** Returns the failure so the form can show it inline. */
  addServer(name: string, config: ServerConfigInput): Promise<Result<ServerState>>;
  updateServer(name: string, newName: string | undefined, config: ServerConfigInput): Promise<Result<ServerState>>;
  removeServer(name: string): Promise<Result<MethodOutput<'servers.remove'>>>;
}

export interface LogsSlice {
  /** Oldest first, at most LOG_CAP entries. */
  logs: LogRow[];
  logsLoaded: boolean;
  /** Entries the host's ring buffers dropped before our snapshot. */
  logsDropped: number;
  applyLogsSnapshot(entries: LogEntry[], dropped: number): void;
  applyLogsAppended(entries: LogEntry[]): void;
  applyLogsCleared(server: string | undefined): void;
  loadLogs(): Promise<void>;
  clearLogs(server: string | undefined): Promise<void>;
}

export interface ConfigSlice {
  configStatus: ConfigStatus | undefined;
  applyConfigStatus(status: ConfigStatus): void;
  loadConfigStatus(): Promise<void>;
  saveConfigText(text: string): Promise<Result<ConfigStatus>>;
}

export interface AppSlice {
  appInfo: AppInfo | undefined;
  connection: ConnectionStatus;
  applyConnection(status: ConnectionStatus): void;
  loadAppInfo(): Promise<void>;
}

export type View = 'servers' | 'logs';

export interface Toast {
  id: number;
  tone: 'error' | 'success' | 'info';
  title: string;
  message?: string;
}

/** Which add/edit dialog is open. `example` prefills the add form with server-everything. */
export type ServerFormRequest = { mode: 'add'; example?: boolean } | { mode: 'edit'; name: string };

export interface UiSlice {
  view: View;
  selectedServer: string | undefined;
  /** Server filter of the log viewer; undefined = all servers. */
  logServer: string | undefined;
  serverForm: ServerFormRequest | undefined;
  configEditorOpen: boolean;
  toasts: Toast[];
  showView(view: View): void;
  selectServer(name: string | undefined): void;
  showLogsFor(name: string | undefined): void;
  openServerForm(request: ServerFormRequest | undefined): void;
  openConfigEditor(open: boolean): void;
  pushToast(toast: Omit<Toast, 'id'>): void;
  /** A failed host call, shown as an error toast. */
  toastFailure(title: string, failure: Failure): void;
  dismissToast(id: number): void;
}

export type BerthState = ServersSlice & LogsSlice & ConfigSlice & AppSlice & UiSlice;

/** A slice creator that also gets the transport its actions call. */
export type SliceCreator<S> = (transport: RendererTransport) => StateCreator<BerthState, [], [], S>;
