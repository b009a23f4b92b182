import type { SettingsView } from '../../../shared/contract/settings';

/** Why the message box cannot send with `model` (its provider lacks its key); undefined when it can. */
export function missingKeyReason(
  settings: SettingsView | undefined,
  model: string,
): { reason: string; banner: string } | undefined {
  if (settings === undefined) return undefined;
  const option = settings.models.find((m) => m.id === model);
  // A model no provider offers any more: sending shows the turn's own words.
  if (option === undefined) return undefined;
  const ready = option.ready ?? settings.apiKey.source !== 'none';
  if (ready) return undefined;
  if (option.provider === undefined || option.provider === 'anthropic') {
    return {
      reason: 'Add an API key in Settings to chat',
      banner:
        'No Anthropic API key is set, so Claude cannot reply. Add one in Settings, or pick another provider’s model.',
    };
  }
  const provider = option.providerLabel ?? option.provider;
  return {
    reason: `Add the ${provider} API key in Settings to chat`,
    banner: `${provider} needs an API key and none is set, so this model cannot reply. Add it in Settings → Model providers.`,
  };
}
