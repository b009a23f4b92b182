import { ANTHROPIC_PROVIDER_ID } from './model-key';

// zod-free: the chat's model picker is on the first screen, whose JavaScript
// budget has no room for the schemas of shared/domain/providers.ts.

export interface ModelGroup<T> {
  provider: string;
  label: string;
  models: T[];
}

/** Models in groups by provider, in the order they come (the built-in first). */
export function groupByProvider<T extends { provider?: string; providerLabel?: string }>(
  models: readonly T[],
): Array<ModelGroup<T>> {
  const groups: Array<ModelGroup<T>> = [];
  for (const model of models) {
    const provider = model.provider ?? ANTHROPIC_PROVIDER_ID;
    let group = groups.find((g) => g.provider === provider);
    if (group === undefined) {
      group = {
        provider,
        label: model.providerLabel ?? (provider === ANTHROPIC_PROVIDER_ID ? 'Anthropic' : provider),
        models: [],
      };
      groups.push(group);
    }
    group.models.push(model);
  }
  return groups;
}
