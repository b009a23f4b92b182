import { useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../shared/contract/settings';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { KeyIcon } from '../../ui/icons';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { failureWords, useWords, words, type Words } from '../../i18n/words';
import { ANTHROPIC_PROVIDER_ID } from '../../../shared/domain/model-key';
import { useKeyCheck } from './key-check';

// Each source's words are `settings.apiKey.source.<source>` and `settings.apiKey.about.<source>`.
const SOURCE_TONE: Record<SettingsView['apiKey']['source'], 'success' | 'accent' | 'warning'> = {
  env: 'accent',
  stored: 'success',
  none: 'warning',
};

/** The Anthropic API key: where it comes from, a password box to save one, and Remove. */
export function ApiKeySection({ settings }: { settings: SettingsView }) {
  const t = useT();
  const saveApiKey = useBerth((s) => s.saveApiKey);
  const clearApiKey = useBerth((s) => s.clearApiKey);
  const pushToast = useBerth((s) => s.pushToast);
  const [key, setKey] = useState('');
  const [error, setError] = useState<Words>();
  const said = useWords();
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const keyCheck = useKeyCheck();
  const { source, hint } = settings.apiKey;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (key.trim() === '') {
      setError(words('settings.apiKey.pasteFirst'));
      return;
    }
    setBusy(true);
    const result = await saveApiKey(key);
    setBusy(false);
    if (result.ok) {
      setKey('');
      setError(undefined);
      // The check's line says the key is saved and whether it works: a "saved" toast beside a refusal would confuse.
      // ANTHROPIC_API_KEY wins over a stored key: then the key just saved is not the one chat uses, nothing to check.
      if (result.value.apiKey.source === 'stored') void keyCheck.check(ANTHROPIC_PROVIDER_ID);
      else pushToast({ tone: 'success', title: words('settings.apiKey.saved') });
    } else setError(failureWords(result));
  }

  async function remove() {
    setBusy(true);
    const result = await clearApiKey();
    setBusy(false);
    if (result.ok) pushToast({ tone: 'success', title: words('settings.apiKey.removed') });
    else setError(failureWords(result));
  }

  return (
    <section className="settings-section" aria-labelledby={`${inputId}-title`}>
      <header className="settings-section-head">
        <h2 id={`${inputId}-title`}>
          <KeyIcon /> {t('settings.apiKey.title')}
        </h2>
        <Chip tone={SOURCE_TONE[source]}>{t(`settings.apiKey.source.${source}`)}</Chip>
        {hint ? <code data-testid="api-key-hint">{hint}</code> : null}
      </header>
      <p className="settings-text">
        {t(`settings.apiKey.about.${source}`)}
        {settings.baseURL ? (
          <>
            {' '}
            <T id="settings.apiKey.baseUrl" values={{ url: settings.baseURL }} components={{ code: <code /> }} />
          </>
        ) : null}
      </p>
      <form className="api-key-form" onSubmit={(e) => void save(e)} noValidate>
        <label className="field-label" htmlFor={inputId}>
          {t(source === 'none' ? 'settings.apiKey.label' : 'settings.apiKey.labelReplace')}
        </label>
        <div className="inline-row">
          <input
            id={inputId}
            className="input mono"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={t('settings.apiKey.placeholder')}
            value={key}
            aria-invalid={Boolean(error)}
            onChange={(e) => setKey(e.target.value)}
          />
          <Button type="submit" variant="primary" disabled={busy}>
            {t('settings.apiKey.save')}
          </Button>
          {source === 'stored' ? (
            <Button variant="danger" onClick={() => void remove()} disabled={busy}>
              {t('settings.apiKey.remove')}
            </Button>
          ) : null}
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {said(error)}
          </p>
        ) : null}
        {keyCheck.line}
      </form>
    </section>
  );
}
