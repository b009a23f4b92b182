import type { MethodOutput } from '../../shared/contract';
import type { ProvidersView } from '../../shared/contract/providers';
import type { ProviderChanges, ProviderConfigInput, ProviderView } from '../../shared/domain/providers';
import type { Result } from '../../shared/result';

/** Settings → Providers: every call answers with the whole list, which the slice keeps. */
export interface ProvidersSlice {
  /** Undefined until loaded. */
  providers: ProviderView[] | undefined;
  applyProviders(view: ProvidersView): void;
  loadProviders(): Promise<void>;
  addProvider(provider: ProviderConfigInput, apiKey?: string): Promise<Result<ProvidersView>>;
  updateProvider(id: string, changes: ProviderChanges): Promise<Result<ProvidersView>>;
  removeProvider(id: string): Promise<Result<ProvidersView>>;
  setProviderKey(id: string, apiKey: string): Promise<Result<ProvidersView>>;
  clearProviderKey(id: string): Promise<Result<ProvidersView>>;
  /** Live from the provider; the failure's message says what is wrong. */
  fetchProviderModels(id: string): Promise<Result<MethodOutput<'providers.listModels'>>>;
  /** Test connection: `message` is what to show, as it is. */
  checkProvider(id: string, model?: string): Promise<Result<MethodOutput<'providers.check'>>>;
}
