import { useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../shared/contract/settings';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { KeyIcon } from '../../ui/icons';

const SOURCE: Record<SettingsView['apiKey']['source'], { label: string; tone: 'success' | 'accent' | 'warning' }> = {
  env: { label: 'From ANTHROPIC_API_KEY', tone: 'accent' },
  stored: { label: 'Stored in Berth', tone: 'success' },
  none: { label: 'Not set', tone: 'warning' },
};

/** The Anthropic API key: where it comes from, a password box to save one, and Remove. */
export function ApiKeySection({ settings }: { settings: SettingsView }) {
  const saveApiKey = useBerth((s) => s.saveApiKey);
  const clearApiKey = useBerth((s) => s.clearApiKey);
  const pushToast = useBerth((s) => s.pushToast);
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const { source, hint } = settings.apiKey;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (key.trim() === '') {
      setError('Paste your API key first');
      return;
    }
    setBusy(true);
    const result = await saveApiKey(key);
    setBusy(false);
    if (result.ok) {
      setKey('');
      setError(undefined);
      pushToast({ tone: 'success', title: 'API key saved' });
    } else setError(result.message);
  }

  async function remove() {
    setBusy(true);
    const result = await clearApiKey();
    setBusy(false);
    if (result.ok) pushToast({ tone: 'success', title: 'Stored API key removed' });
    else setError(result.message);
  }

  return (
    <section className="settings-section" aria-labelledby={`${inputId}-title`}>
      <header className="settings-section-head">
        <h2 id={`${inputId}-title`}>
          <KeyIcon /> Anthropic API key
        </h2>
        <Chip tone={SOURCE[source].tone}>{SOURCE[source].label}</Chip>
        {hint ? <code data-testid="api-key-hint">{hint}</code> : null}
      </header>
      <p className="settings-text">
        {source === 'env'
          ? 'Berth uses the key in its environment (ANTHROPIC_API_KEY), which wins over a key saved here.'
          : source === 'stored'
            ? 'Saved as a secret: in your system’s keychain, or in browser mode a private file in Berth’s config folder. Only its last characters are ever shown.'
            : 'Chat needs a key from console.anthropic.com. It is saved as a secret and never shown again; the rest of Berth works without one.'}
        {settings.baseURL ? (
          <>
            {' '}
            Requests go to <code>{settings.baseURL}</code>.
          </>
        ) : null}
      </p>
      <form className="api-key-form" onSubmit={(e) => void save(e)} noValidate>
        <label className="field-label" htmlFor={inputId}>
          {source === 'none' ? 'API key' : 'Replace the key'}
        </label>
        <div className="inline-row">
          <input
            id={inputId}
            className="input mono"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="sk-ant-…"
            value={key}
            aria-invalid={Boolean(error)}
            onChange={(e) => setKey(e.target.value)}
          />
          <Button type="submit" variant="primary" disabled={busy}>
            Save
          </Button>
          {source === 'stored' ? (
            <Button variant="danger" onClick={() => void remove()} disabled={busy}>
              Remove
            </Button>
          ) : null}
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
