import type { ConfigSlice, SliceCreator } from './types';
import { translate } from '../i18n/use-t';

export const createConfigSlice: SliceCreator<ConfigSlice> = (transport) => (set, get) => ({
  configStatus: undefined,
  applyConfigStatus(status) {
    set({ configStatus: status });
  },
  async loadConfigStatus() {
    const result = await transport.call('config.status', {});
    if (result.ok) get().applyConfigStatus(result.value);
    else get().toastFailure(translate('config.toast.statusFailed'), result);
  },
  async saveConfigText(text) {
    const result = await transport.call('config.saveText', { text });
    if (result.ok) get().applyConfigStatus(result.value);
    return result;
  },
});
