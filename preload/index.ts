import { contextBridge, ipcRenderer } from 'electron';
import { PRELOAD_GLOBAL } from '../shared/contract/preload-api';
import { createBridgeApi } from './bridge-api';

// Runs sandboxed: bundled into one CommonJS file whose only require is `electron`.
contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, createBridgeApi(ipcRenderer));
