import type { SettingsView } from '../../../shared/contract/settings';
import { translate } from '../../i18n/use-t';

/**
 * Why the message box cannot send with `model` (its provider lacks its key), in the active locale (it is
 * called while the chat view renders, so it follows a switch); undefined when it can.
 */
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
      reason: translate('chat.key.reason'),
      banner: translate('chat.key.banner'),
    };
  }
  const provider = option.providerLabel ?? option.provider;
  return {
    reason: translate('chat.key.providerReason', { provider }),
    banner: translate('chat.key.providerBanner', { provider }),
  };
}
