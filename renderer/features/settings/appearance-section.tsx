import { useId } from 'react';
import { THEME_CHOICES } from '../../../shared/domain/appearance';
import { useT } from '../../i18n/use-t';
import { useBerth } from '../../store';
import { SunMoonIcon } from '../../ui/icons';
import { Segmented } from '../../ui/segmented';

/**
 * The Theme setting: System (the default: the OS's light or dark, switching with it), Light or
 * Dark. It applies at once, in every window (features/shell/theme-sync.tsx), and the host keeps it.
 */
export function AppearanceSection() {
  const t = useT();
  const id = useId();
  const theme = useBerth((s) => s.settings?.appearance?.theme ?? 'system');
  const setAppearance = useBerth((s) => s.setAppearance);
  const label = {
    system: t('settings.appearance.system'),
    light: t('settings.appearance.light'),
    dark: t('settings.appearance.dark'),
  };
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <header className="settings-section-head">
        <h2 id={`${id}-title`}>
          <SunMoonIcon /> {t('settings.appearance.title')}
        </h2>
      </header>
      <div className="inline-row">
        <span className="field-label" id={`${id}-theme`}>
          {t('settings.appearance.theme')}
        </span>
        <Segmented
          value={theme}
          aria-labelledby={`${id}-theme`}
          options={THEME_CHOICES.map((choice) => ({ value: choice, label: label[choice] }))}
          onChange={(next) => void setAppearance({ theme: next })}
        />
      </div>
      <p className="field-hint">{t('settings.appearance.hint')}</p>
    </section>
  );
}
