import { PRESET_INFO, type ProviderPreset } from '../../../shared/domain/providers';
import type { Translate } from '../../i18n/use-t';

/** A preset's name on screen: the services' names as they are, the custom one in the person's language. */
export function presetName(t: Translate, preset: ProviderPreset): string {
  return preset === 'custom' ? t('settings.providers.preset.custom') : PRESET_INFO[preset].label;
}
