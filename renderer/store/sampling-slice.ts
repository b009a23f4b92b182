import { DEFAULT_SAMPLING_LIMITS } from '../../shared/domain/sampling-defaults';
import type { SamplingUsage } from '../../shared/domain/sampling-limits';
import type { SamplingSlice, SliceCreator } from './types';

/** A server's limits and spending, whether or not the host has told us about it yet. */
export function samplingUsageOf(
  state: Pick<SamplingSlice, 'samplingUsage' | 'samplingDefaults'>,
  server: string,
): SamplingUsage {
  return (
    state.samplingUsage[server] ?? {
      server,
      limits: state.samplingDefaults,
      custom: false,
      used: 0,
      inFlight: 0,
      requests: 0,
      refused: 0,
    }
  );
}

export const createSamplingSlice: SliceCreator<SamplingSlice> = (transport) => (set, get) => ({
  samplingUsage: {},
  samplingDefaults: DEFAULT_SAMPLING_LIMITS,
  samplingModels: undefined,

  applySamplingUsage(usage) {
    set((s) => ({ samplingUsage: { ...s.samplingUsage, [usage.server]: usage } }));
  },
  applyBudgetRefused({ server, usage }) {
    get().applySamplingUsage(usage);
    const spent = usage.used >= usage.limits.sessionBudget;
    const count = `${usage.used.toLocaleString()} of ${usage.limits.sessionBudget.toLocaleString()} tokens`;
    get().pushToast({
      tone: 'error',
      title: spent
        ? `“${server}” has used up its sampling budget`
        : `“${server}” has no sampling budget free right now`,
      message: spent
        ? `Berth refused its request for a completion: it has used ${count} this Berth session. Raise or reset the budget in the server’s Overview.`
        : `Berth refused its request for a completion: ${count} are used and the rest is held by requests still running.`,
      action: { label: 'Open server', run: () => get().selectServer(server) },
    });
  },
  async loadSamplingUsage() {
    const result = await transport.call('sampling.usage', {});
    if (!result.ok) {
      get().toastFailure('Could not read the sampling budgets', result);
      return;
    }
    set({
      samplingDefaults: result.value.defaults,
      samplingUsage: Object.fromEntries(result.value.servers.map((usage) => [usage.server, usage])),
    });
  },
  async setSamplingLimits(server, limits) {
    const result = await transport.call('sampling.setLimits', { server, limits });
    if (result.ok) get().applySamplingUsage(result.value);
    return result;
  },
  async loadSamplingModels() {
    const result = await transport.call('sampling.models', {});
    if (result.ok) set({ samplingModels: result.value });
    else get().toastFailure('Could not read the models for sampling', result);
  },
  async setModelRanks(model, ranks) {
    const result = await transport.call('sampling.setModelRanks', { model, ranks });
    if (result.ok) set({ samplingModels: result.value });
    return result;
  },
  async declineAllSampling(server, refuseForSession) {
    const result = await transport.call('sampling.declineAll', { server, refuseForSession });
    if (!result.ok) return result;
    get().applySamplingPolicies(result.value.policies);
    return { ok: true, value: { declined: result.value.declined } };
  },
  async resetSamplingUsage(server) {
    const result = await transport.call('sampling.resetUsage', { server });
    if (result.ok) get().applySamplingUsage(result.value);
    else get().toastFailure(`Could not reset the sampling budget of “${server}”`, result);
  },
});
