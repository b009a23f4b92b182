import { DEFAULT_SAMPLING_LIMITS } from '../../shared/domain/sampling-defaults';
import type { SamplingUsage } from '../../shared/domain/sampling-limits';
import type { SamplingSlice, SliceCreator } from './types';
import { words } from '../i18n/words';

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
    const count = { used: usage.used, budget: usage.limits.sessionBudget };
    get().pushToast({
      tone: 'error',
      title: words(spent ? 'servers.toast.budgetSpent' : 'servers.toast.budgetHeld', { server }),
      message: words(spent ? 'servers.toast.budgetSpentDetail' : 'servers.toast.budgetHeldDetail', count),
      action: { label: words('servers.toast.openServer'), run: () => get().selectServer(server) },
    });
  },
  async loadSamplingUsage() {
    const result = await transport.call('sampling.usage', {});
    if (!result.ok) {
      get().toastFailure(words('servers.toast.budgetsReadFailed'), result);
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
    else get().toastFailure(words('servers.toast.samplingModelsFailed'), result);
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
    else get().toastFailure(words('servers.toast.budgetResetFailed', { server }), result);
  },
});
