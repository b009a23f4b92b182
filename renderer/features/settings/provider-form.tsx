import { useId, useState, type FormEvent } from 'react';
import {
  baseUrlCredentialsProblem,
  PRESET_INFO,
  PROVIDER_PRESETS,
  type ProviderModel,
  type ProviderPreset,
  type ProviderView,
} from '../../../shared/domain/providers';
import { useBerth } from '../../store';
import { Button, Field, InlineAlert } from '../../ui/controls';
import { ProviderModels } from './provider-models';
import { TestConnection } from './test-connection';
import { useT } from '../../i18n/use-t';
import { presetName } from './preset-name';
import { failureWords, useWords, words, type Words } from '../../i18n/words';
import { WordsText } from '../../i18n/words-text';
import { useKeyCheck } from './key-check';

// The paths the host names a refused field by (not words).
const BASE_URL = 'baseUrl';
const API_KEY = 'apiKey';

/** The first free id for a preset: `ollama`, then `ollama-2`… */
function freeId(preset: ProviderPreset, taken: readonly string[]): string {
  if (!taken.includes(preset)) return preset;
  for (let n = 2; ; n++) if (!taken.includes(`${preset}-${n}`)) return `${preset}-${n}`;
}

interface ProviderFormProps {
  /** Absent: a new provider. */
  provider?: ProviderView;
  /** The provider was just added: say what to do next. */
  justAdded?: boolean;
  takenIds: readonly string[];
  onAdded?: (id: string) => void;
  onClose: () => void;
}

/** Add or edit an OpenAI-compatible provider: preset, name, base URL, key, models. */
export function ProviderForm({ provider, justAdded = false, takenIds, onAdded, onClose }: ProviderFormProps) {
  const t = useT();
  const addProvider = useBerth((s) => s.addProvider);
  const updateProvider = useBerth((s) => s.updateProvider);
  const pushToast = useBerth((s) => s.pushToast);
  const editing = provider !== undefined && provider.preset !== 'anthropic';
  const [preset, setPreset] = useState<ProviderPreset>(editing ? (provider.preset as ProviderPreset) : 'ollama');
  const [label, setLabel] = useState(editing ? provider.label : PRESET_INFO.ollama.label);
  const [id, setId] = useState(editing ? provider.id : freeId('ollama', takenIds));
  const [idTouched, setIdTouched] = useState(false);
  const [baseUrl, setBaseUrl] = useState(editing ? (provider.baseUrl ?? '') : PRESET_INFO.ollama.baseUrl);
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState<ProviderModel[]>(editing ? provider.models : []);
  const [error, setError] = useState<{ message: Words; path?: string }>();
  const wordsOf = useWords();
  const [busy, setBusy] = useState(false);
  const titleId = useId();

  function pickPreset(next: ProviderPreset) {
    // Name and URL follow the preset unless the person changed them from the previous preset's.
    if (label === '' || label === presetName(t, preset)) setLabel(presetName(t, next));
    if (baseUrl === '' || baseUrl === PRESET_INFO[preset].baseUrl) setBaseUrl(PRESET_INFO[next].baseUrl);
    if (!editing && !idTouched) setId(freeId(next, takenIds));
    setPreset(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Refused here too, so a password typed into the URL never crosses the bridge.
    const credentials = baseUrlCredentialsProblem(baseUrl.trim());
    if (credentials !== undefined) {
      setError({ message: words('settings.providers.form.baseUrlCredentials'), path: BASE_URL });
      return;
    }
    setBusy(true);
    const result = editing
      ? await updateProvider(provider.id, { label, preset, baseUrl, models })
      : await addProvider({ id: id.trim(), label, preset, baseUrl: baseUrl.trim(), models }, apiKey);
    setBusy(false);
    if (!result.ok) {
      setError({ message: failureWords(result), ...(result.path !== undefined ? { path: result.path } : {}) });
      return;
    }
    setError(undefined);
    if (editing) {
      pushToast({ tone: 'success', title: words('settings.providers.form.saved', { provider: label }) });
      onClose();
    } else {
      setApiKey('');
      onAdded?.(id.trim());
    }
  }

  const fieldError = (path: string) =>
    error?.path !== undefined &&
    (error.path === path || error.path.startsWith(`provider.${path}`) || error.path.startsWith(`changes.${path}`))
      ? wordsOf(error.message)
      : undefined;
  const otherError =
    error !== undefined && !['id', 'label', BASE_URL, API_KEY].some((p) => fieldError(p) !== undefined)
      ? wordsOf(error.message)
      : undefined;
  const needsKey = PRESET_INFO[preset].needsKey;

  return (
    <form className="provider-form" aria-labelledby={titleId} onSubmit={(e) => void submit(e)} noValidate>
      <h3 id={titleId} className="provider-form-title">
        {editing
          ? t('settings.providers.form.titleEdit', { provider: provider.label })
          : t('settings.providers.form.titleAdd')}
      </h3>
      {justAdded ? (
        <p className="field-hint" role="status">
          {t('settings.providers.form.justAdded')}
        </p>
      ) : null}
      <div className="provider-form-grid">
        <Field label={t('settings.providers.form.preset')}>
          {({ id: fieldId }) => (
            <select
              id={fieldId}
              className="input select-input"
              value={preset}
              onChange={(e) => pickPreset(e.target.value as ProviderPreset)}
            >
              {PROVIDER_PRESETS.map((p) => (
                <option key={p} value={p}>
                  {presetName(t, p)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('settings.providers.form.name')} error={fieldError('label')}>
          {({ id: fieldId, describedBy, invalid }) => (
            <input
              id={fieldId}
              className="input"
              value={label}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setLabel(e.target.value)}
            />
          )}
        </Field>
        {editing ? null : (
          <Field
            label={t('settings.providers.form.id')}
            hint={t('settings.providers.form.idHint')}
            error={fieldError('id')}
          >
            {({ id: fieldId, describedBy, invalid }) => (
              <input
                id={fieldId}
                className="input mono"
                value={id}
                spellCheck={false}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => {
                  setIdTouched(true);
                  setId(e.target.value);
                }}
              />
            )}
          </Field>
        )}
        <Field
          label={t('settings.providers.form.baseUrl')}
          hint={preset === 'custom' ? t('settings.providers.form.baseUrlHint') : undefined}
          error={fieldError(BASE_URL)}
        >
          {({ id: fieldId, describedBy, invalid }) => (
            <input
              id={fieldId}
              className="input mono"
              value={baseUrl}
              spellCheck={false}
              placeholder="http://127.0.0.1:8000/v1"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          )}
        </Field>
        {editing ? null : (
          <Field
            label={t(needsKey ? 'settings.providers.form.apiKey' : 'settings.providers.form.apiKeyOptional')}
            hint={t(needsKey ? 'settings.providers.form.apiKeyHint' : 'settings.providers.form.apiKeyHintLocal')}
            error={fieldError(API_KEY)}
          >
            {({ id: fieldId, describedBy, invalid }) => (
              <input
                id={fieldId}
                className="input mono"
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={apiKey}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setApiKey(e.target.value)}
              />
            )}
          </Field>
        )}
      </div>
      {editing ? <ProviderKey provider={provider} /> : null}
      <ProviderModels
        providerId={editing ? provider.id : undefined}
        providerLabel={label}
        models={models}
        onChange={setModels}
      />
      {otherError ? <InlineAlert>{otherError}</InlineAlert> : null}
      <div className="provider-form-actions">
        {editing ? <TestConnection providerId={provider.id} providerLabel={provider.label} /> : null}
        <div className="spacer" />
        <Button variant="ghost" onClick={onClose}>
          {t(justAdded ? 'settings.providers.form.close' : 'settings.providers.form.cancel')}
        </Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {t(editing ? 'settings.providers.form.save' : 'settings.providers.add')}
        </Button>
      </div>
    </form>
  );
}

/** An existing provider's key: set, replace or remove it (never shown). */
function ProviderKey({ provider }: { provider: ProviderView }) {
  const t = useT();
  const setProviderKey = useBerth((s) => s.setProviderKey);
  const clearProviderKey = useBerth((s) => s.clearProviderKey);
  const [key, setKey] = useState('');
  const [error, setError] = useState<Words>();
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const keyCheck = useKeyCheck();

  async function save() {
    if (key.trim() === '') {
      setError(words('settings.providers.form.key.pasteFirst'));
      return;
    }
    setBusy(true);
    const result = await setProviderKey(provider.id, key);
    setBusy(false);
    if (result.ok) {
      setKey('');
      setError(undefined);
      void keyCheck.check(provider.id);
    } else setError(failureWords(result));
  }

  async function remove() {
    setBusy(true);
    const result = await clearProviderKey(provider.id);
    setBusy(false);
    if (!result.ok) setError(failureWords(result));
  }

  return (
    <div className="provider-key">
      <label className="field-label" htmlFor={inputId}>
        {provider.key.set
          ? provider.key.hint !== undefined
            ? t('settings.providers.form.key.replaceHint', { hint: provider.key.hint })
            : t('settings.providers.form.key.replaceSet')
          : t(provider.needsKey ? 'settings.providers.form.key.needed' : 'settings.providers.form.apiKeyOptional')}
      </label>
      <div className="inline-row">
        <input
          id={inputId}
          className="input mono"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          aria-invalid={Boolean(error)}
          onChange={(e) => setKey(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            }
          }}
        />
        <Button onClick={() => void save()} disabled={busy}>
          {t('settings.providers.form.key.save')}
        </Button>
        {provider.key.set ? (
          <Button variant="danger" onClick={() => void remove()} disabled={busy}>
            {t('settings.providers.form.key.remove')}
          </Button>
        ) : null}
      </div>
      {error ? (
        <p className="field-error" role="alert">
          <WordsText words={error} />
        </p>
      ) : null}
      {keyCheck.line}
    </div>
  );
}
