import type { Handlers } from '../../shared/contract';
import type { samplingMethods } from '../../shared/contract/sampling';
import { DEFAULT_SAMPLING_LIMITS } from '../../shared/domain/sampling-limits';
import { HostError } from '../../shared/result';
import { samplingWords } from '../../shared/domain/sampling-words';
import { serverError } from '../../shared/domain/server-errors';
import type { SamplingModelTable } from '../../shared/contract/sampling';
import type { SamplingModels } from '../sampling/candidate-models';
import type { SamplingBudget } from '../sampling/sampling-budget';
import type { SamplingReview } from '../sampling/sampling-review';
import type { SettingsStore } from '../settings/settings-store';

/** The sampling methods of the contract. */
export type SamplingHandlers = Pick<Handlers, keyof typeof samplingMethods>;

export interface SamplingHandlerDeps {
  budget: SamplingBudget;
  /** Whether a server's requests are asked about, allowed for the session, or refused. */
  review: Pick<SamplingReview, 'policies' | 'setPolicy' | 'declineAll'>;
  settings: Pick<SettingsStore, 'setSamplingLimits' | 'samplingLimitServers' | 'modelRanks' | 'setModelRanks'>;
  /** The candidates sampling chooses among, the person's ranks applied. */
  models: SamplingModels;
  /** The servers Berth has: limits for any other would be kept for nobody (a removed server's are forgotten). */
  servers: { get(name: string): unknown };
}

/** Each server's sampling policy; its cap and session budget: read, set (persisted), reset. */
export function createSamplingHandlers({
  budget,
  review,
  settings,
  servers,
  models,
}: SamplingHandlerDeps): SamplingHandlers {
  const table = (): SamplingModelTable => {
    const custom = settings.modelRanks();
    return {
      models: models.list().map(({ key, label, providerLabel, tier, costRank, speedRank, intelligenceRank }) => ({
        key,
        label,
        provider: providerLabel,
        tier,
        costRank,
        speedRank,
        intelligenceRank,
        custom: custom[key] !== undefined,
      })),
      defaultModel: models.defaultKey(),
    };
  };
  return {
    'sampling.models': async () => table(),
    'sampling.setModelRanks': async ({ model, ranks }) => {
      // Resetting a model no longer listed is allowed: it cleans up after a removed provider.
      if (ranks !== null && !models.list().some((m) => m.key === model))
        throw HostError.coded('NOT_FOUND', samplingWords('sampling-words.model-not-listed', { model }), 'model');
      await settings.setModelRanks(model, ranks ?? undefined);
      return table();
    },
    'sampling.policies': async () => review.policies(),
    'sampling.setPolicy': async ({ server, policy }) => {
      review.setPolicy(server, policy);
      return review.policies();
    },
    'sampling.declineAll': async ({ server, refuseForSession }) => ({
      declined: review.declineAll(server, refuseForSession),
      policies: review.policies(),
    }),
    'sampling.usage': async () => {
      const names = new Set([...budget.list().map((usage) => usage.server), ...settings.samplingLimitServers()]);
      return {
        defaults: { ...DEFAULT_SAMPLING_LIMITS },
        servers: [...names].sort((a, b) => a.localeCompare(b)).map((server) => budget.usage(server)),
      };
    },
    'sampling.setLimits': async ({ server, limits }) => {
      if (servers.get(server) === undefined)
        throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name: server }), 'server');
      await settings.setSamplingLimits(server, limits ?? undefined);
      budget.limitsChanged(server);
      return budget.usage(server);
    },
    'sampling.resetUsage': async ({ server }) => budget.reset(server),
  };
}
