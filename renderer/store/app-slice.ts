import type { AppSlice, SliceCreator } from './types';
import { words } from '../i18n/words';

/** App info and the bridge's connection state (mirrored from the transport by connectStore). */
export const createAppSlice: SliceCreator<AppSlice> = (transport) => (set, get) => ({
  appInfo: undefined,
  connection: transport.connection.get(),
  applyConnection(status) {
    set({ connection: status });
  },
  async loadAppInfo() {
    const result = await transport.call('app.info', {});
    if (result.ok) set({ appInfo: result.value });
    else get().toastFailure(words('shell.toast.appInfoFailed'), result);
  },
});
