import type { Handlers } from '../../shared/contract';
import type { samplingMethods } from '../../shared/contract/sampling';
import { DEFAULT_SAMPLING_LIMITS } from '../../shared/domain/sampling-limits';
import type { SamplingBudget } from '../sampling/sampling-budget';
import type { SettingsStore } from '../settings/settings-store';

/** The sampling limit methods of the contract. */
export type SamplingHandlers = Pick<Handlers, keyof typeof samplingMethods>;

export interface SamplingHandlerDeps {
  budget: SamplingBudget;
  settings: Pick<SettingsStore, 'setSamplingLimits' | 'samplingLimitServers'>;
}

/** Each server's sampling cap and session budget: read, set (persisted), reset. */
export function createSamplingHandlers({ budget, settings }: SamplingHandlerDeps): SamplingHandlers {
  return {
    'sampling.usage': async () => {
      const names = new Set([...budget.list().map((usage) => usage.server), ...settings.samplingLimitServers()]);
      return { defaults: { ...DEFAULT_SAMPLING_LIMITS }, servers: [...names].sort((a, b) => a.localeCompare(b)).map((server) => budget.usage(server)) };
    },
    'sampling.setLimits': async ({ server, limits }) => {
      await settings.setSamplingLimits(server, limits ?? undefined);
      budget.limitsChanged(server);
      return budget.usage(server);
    },
    'sampling.resetUsage': async ({ server }) => budget.reset(server),
  };
}
