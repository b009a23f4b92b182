import { ANTHROPIC_PROVIDER_ID } from '../../shared/domain/model-key';
import type { ProvidersView } from '../../shared/contract/providers';
import { baseUrlForDisplay, PRESET_INFO, type ProviderView } from '../../shared/domain/providers';
import { ANTHROPIC_LABEL } from '../settings/model-catalog';
import { keyHint, type SettingsStore } from '../settings/settings-store';

/** What Settings shows of every provider: key status and hint, never a key. */
export function providersView(settings: Pick<SettingsStore, 'providers' | 'models' | 'view'>): ProvidersView {
  const view = settings.view();
  const anthropic: ProviderView = {
    id: ANTHROPIC_PROVIDER_ID,
    label: ANTHROPIC_LABEL,
    kind: 'anthropic',
    preset: 'anthropic',
    ...(view.baseURL !== undefined ? { baseUrl: view.baseURL } : {}),
    models: settings.models().map((m) => ({
      id: m.id,
      label: m.label,
      supportsTools: m.supportsTools ?? true,
      ...(m.takesImages !== undefined ? { takesImages: m.takesImages } : {}),
      ...(m.contextWindow !== undefined ? { contextWindow: m.contextWindow } : {}),
      // Shown back so a save keeps what the listing said.
      ...(m.reasoning !== undefined ? { reasoning: m.reasoning } : {}),
      ...(m.contextManagement !== undefined ? { contextManagement: m.contextManagement } : {}),
      tier: m.tier,
      costRank: m.costRank,
      speedRank: m.speedRank,
      intelligenceRank: m.intelligenceRank,
    })),
    key:
      view.apiKey.source === 'none'
        ? { set: false }
        : { set: true, ...(view.apiKey.hint !== undefined ? { hint: view.apiKey.hint } : {}) },
    needsKey: true,
    ready: view.apiKey.source !== 'none',
    builtIn: true,
  };
  const configured = settings.providers.list().map((provider): ProviderView => {
    const key = settings.providers.key(provider.id);
    return {
      id: provider.id,
      label: provider.label,
      kind: provider.kind,
      preset: provider.preset,
      baseUrl: baseUrlForDisplay(provider.baseUrl),
      models: provider.models,
      key: key === undefined ? { set: false } : { set: true, hint: keyHint(key) },
      needsKey: PRESET_INFO[provider.preset].needsKey,
      ready: settings.providers.ready(provider),
      builtIn: false,
    };
  });
  return { providers: [anthropic, ...configured] };
}
