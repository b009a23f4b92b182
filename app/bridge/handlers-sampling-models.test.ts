import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES, type Handlers, type MethodName } from '../../shared/contract';
import { SamplingModelTableSchema, type SamplingModelTable } from '../../shared/contract/sampling';
import { modelTableCandidates } from '../sampling/candidate-models';
import { chooseModel } from '../sampling/model-selection';
import { SamplingBudget } from '../sampling/sampling-budget';
import type { SecretStore } from '../secrets/secret-store';
import { SettingsStore } from '../settings/settings-store';
import { createSamplingHandlers } from './handlers-sampling';
import { createRouter } from './router';

const noSecrets: SecretStore = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-sampling-models-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function world() {
  const settings = await SettingsStore.open({ configDir: dir, secrets: noSecrets, env: {}, warn: () => undefined });
  const models = modelTableCandidates(settings);
  const own = createSamplingHandlers({
    budget: new SamplingBudget(),
    review: { policies: () => ({}), setPolicy: () => undefined, declineAll: () => 0 },
    settings,
    servers: { get: () => undefined },
    models,
  });
  // Only the sampling methods are served; any other would be a test mistake.
  const others = Object.fromEntries(
    METHOD_NAMES.map((m: MethodName) => [m, () => Promise.reject(new Error(`${m} is not served here`))]),
  );
  return { settings, models, router: createRouter({ ...others, ...own } as Handlers) };
}

const rowOf = (table: SamplingModelTable, key: string) => table.models.find((row) => row.key === key);

/** The table a successful call answered with, read through its contract schema. */
function tableOf(result: { ok: true; value: unknown } | { ok: false; message: string }): SamplingModelTable {
  if (!result.ok) throw new Error(result.message);
  return SamplingModelTableSchema.parse(result.value);
}

describe('sampling.models and sampling.setModelRanks', () => {
  it('list the model table with providers, keep the person’s ranks in settings.json, and sampling chooses through them', async () => {
    const { router, settings, models } = await world();
    const listed = await router.dispatch('sampling.models', {});
    expect(tableOf(listed).defaultModel).toBe('claude-sonnet-5');
    expect(rowOf(tableOf(listed), 'claude-haiku-4-5')).toEqual({
      key: 'claude-haiku-4-5',
      label: 'Claude Haiku 4.5',
      provider: 'Anthropic',
      tier: 'fast',
      costRank: 1,
      speedRank: 1,
      intelligenceRank: 4,
      custom: false,
    });
    expect(chooseModel({ intelligencePriority: 1 }, models.list(), 'claude-sonnet-5').model).toBe('claude-fable-5-1');

    const ranks = { tier: 'smart' as const, costRank: 1, speedRank: 1, intelligenceRank: 1 };
    const set = await router.dispatch('sampling.setModelRanks', { model: 'claude-haiku-4-5', ranks });
    expect(rowOf(tableOf(set), 'claude-haiku-4-5')).toMatchObject({ ...ranks, custom: true });
    expect(JSON.parse(await readFile(settings.filePath, 'utf8'))).toMatchObject({
      modelRanks: { 'claude-haiku-4-5': ranks },
    });
    // The ranks the person set decide: Haiku now ties Fable as the most capable, and is the cheaper of the two.
    expect(chooseModel({ intelligencePriority: 1, costPriority: 0.1 }, models.list(), 'claude-sonnet-5').model).toBe(
      'claude-haiku-4-5',
    );

    // Kept across restarts.
    const reopened = await SettingsStore.open({ configDir: dir, secrets: noSecrets, env: {}, warn: () => undefined });
    expect(reopened.modelRanks()).toEqual({ 'claude-haiku-4-5': ranks });

    const reset = await router.dispatch('sampling.setModelRanks', { model: 'claude-haiku-4-5', ranks: null });
    expect(rowOf(tableOf(reset), 'claude-haiku-4-5')).toMatchObject({
      tier: 'fast',
      intelligenceRank: 4,
      custom: false,
    });
    expect(JSON.parse(await readFile(settings.filePath, 'utf8')).modelRanks).toEqual({});
  });

  it('refuses ranks for a model nobody lists, and ranks out of range, storing nothing', async () => {
    const { router, settings } = await world();
    expect(
      await router.dispatch('sampling.setModelRanks', {
        model: 'ollama:ghost',
        ranks: { tier: 'fast', costRank: 1, speedRank: 1, intelligenceRank: 1 },
      }),
    ).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: "No model 'ollama:ghost' is listed for sampling",
      hostMessage: { code: 'sampling-words.model-not-listed', params: { model: 'ollama:ghost' } },
      path: 'model',
    });
    const bad = await router.dispatch('sampling.setModelRanks', {
      model: 'claude-haiku-4-5',
      ranks: { tier: 'fast', costRank: 0, speedRank: 1, intelligenceRank: 1 },
    });
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(settings.modelRanks()).toEqual({});
  });
});
