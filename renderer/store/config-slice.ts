import type { ConfigSlice, SliceCreator } from './types';
import { words } from '../i18n/words';

export const createConfigSlice: SliceCreator<ConfigSlice> = (transport) => (set, get) => ({
  configStatus: undefined,
  applyConfigStatus(status) {
    set({ configStatus: status });
  },
  async loadConfigStatus() {
    const result = await transport.call('config.status', {});
    if (result.ok) get().applyConfigStatus(result.value);
    else get().toastFailure(words('config.toast.statusFailed'), result);
  },
  async saveConfigText(text) {
    const result = await transport.call('config.saveText', { text });
    if (result.ok) get().applyConfigStatus(result.value);
    return result;
  },
});
