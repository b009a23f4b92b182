import { Tooltip } from 'radix-ui';
import { useEffect } from 'react';
import { connectStore, StoreProvider, type BerthStore } from './store';
import type { RendererTransport } from './transport';
import { watchAttention } from './features/pending/attention';
import { AppShell } from './features/shell/app-shell';
import { BerthI18nProvider } from './i18n/provider';
import { LocaleSync } from './features/shell/locale-sync';
import { ThemeSync } from './features/shell/theme-sync';

/** The whole UI for one store and transport; connecting happens here so tests can mount it with fakes. */
export function App({ store, transport }: { store: BerthStore; transport: RendererTransport }) {
  useEffect(() => connectStore(store, transport), [store, transport]);
  useEffect(() => watchAttention(store), [store]);
  return (
    <StoreProvider store={store}>
      <BerthI18nProvider>
        <LocaleSync />
        <ThemeSync />
        <Tooltip.Provider delayDuration={400}>
          <AppShell transport={transport} />
        </Tooltip.Provider>
      </BerthI18nProvider>
    </StoreProvider>
  );
}
