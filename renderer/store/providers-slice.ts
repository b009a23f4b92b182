import type { ProvidersView } from '../../shared/contract/providers';
import type { Result } from '../../shared/result';
import type { ProvidersSlice, SliceCreator } from './types';
import { words } from '../i18n/words';

export const createProvidersSlice: SliceCreator<ProvidersSlice> = (transport) => (set, get) => {
  /** Keep the list a successful change answered with; hand the result to the form either way. */
  const keep = (result: Result<ProvidersView>): Result<ProvidersView> => {
    if (result.ok) get().applyProviders(result.value);
    return result;
  };
  return {
    providers: undefined,
    applyProviders(view) {
      set({ providers: view.providers });
    },
    async loadProviders() {
      const result = await transport.call('providers.list', {});
      if (result.ok) get().applyProviders(result.value);
      else get().toastFailure(words('settings.toast.readProvidersFailed'), result);
    },
    async addProvider(provider, apiKey) {
      return keep(
        await transport.call('providers.add', {
          provider,
          ...(apiKey !== undefined && apiKey.trim() !== '' ? { apiKey } : {}),
        }),
      );
    },
    async updateProvider(id, changes) {
      return keep(await transport.call('providers.update', { id, changes }));
    },
    async removeProvider(id) {
      return keep(await transport.call('providers.remove', { id }));
    },
    async setProviderKey(id, apiKey) {
      return keep(await transport.call('providers.setKey', { id, apiKey }));
    },
    async clearProviderKey(id) {
      return keep(await transport.call('providers.clearKey', { id }));
    },
    fetchProviderModels(id) {
      return transport.call('providers.listModels', { id });
    },
    checkProvider(id, model) {
      return transport.call('providers.check', { id, ...(model !== undefined ? { model } : {}) });
    },
    checkProviderKey(id) {
      return transport.call('providers.checkKey', { id });
    },
  };
};
