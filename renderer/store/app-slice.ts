import type { AppSlice, SliceCreator } from './types';
import { translate } from '../i18n/use-t';

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
    else get().toastFailure(translate('shell.toast.appInfoFailed'), result);
  },
});
