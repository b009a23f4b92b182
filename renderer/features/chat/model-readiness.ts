import type { SettingsView } from '../../../shared/contract/settings';
import { translate } from '../../i18n/use-t';

/** Why the message box cannot send with `model` (its provider lacks its key), worded as the chat renders; undefined when it can. */
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
      reason: translate('chat.readiness.anthropicReason'),
      banner: translate('chat.readiness.anthropicBanner'),
    };
  }
  const provider = option.providerLabel ?? option.provider;
  return {
    reason: translate('chat.readiness.providerReason', { provider }),
    banner: translate('chat.readiness.providerBanner', { provider }),
  };
}
