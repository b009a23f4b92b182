import { useId } from 'react';
import { LANGUAGE_NAMES, LANGUAGES, type LanguageChoice } from '../../../shared/domain/language';
import { useT } from '../../i18n/use-t';
import { useBerth } from '../../store';
import { GlobeIcon } from '../../ui/icons';

/**
 * The Language setting: Automatic (the system's language) or one of Berth's, each named in itself
 * so a person finds theirs whatever language the screen is in. It applies at once, no restart.
 */
export function LanguageSection() {
  const t = useT();
  const id = useId();
  const language = useBerth((s) => s.settings?.language ?? 'auto');
  const setLanguage = useBerth((s) => s.setLanguage);
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <header className="settings-section-head">
        <h2 id={`${id}-title`}>
          <GlobeIcon /> {t('settings.language.title')}
        </h2>
      </header>
      <div className="inline-row">
        <label className="field-label" htmlFor={id}>
          {t('settings.language.label')}
        </label>
        <select
          id={id}
          className="input select-input narrow"
          value={language}
          onChange={(e) => void setLanguage(e.target.value as LanguageChoice)}
        >
          <option value="auto">{t('settings.language.auto')}</option>
          {LANGUAGES.map((tag) => (
            <option key={tag} value={tag} lang={tag}>
              {LANGUAGE_NAMES[tag]}
            </option>
          ))}
        </select>
      </div>
      <p className="field-hint">{t('settings.language.hint')}</p>
    </section>
  );
}
