import { useId, useState } from 'react';
import type { ProviderModel } from '../../../shared/domain/providers';
import { guessTakesImages, takesImages } from '../../../shared/domain/model-images';
import { useBerth } from '../../store';
import { Button, IconButton } from '../../ui/controls';
import { PlusIcon, RestartIcon, TrashIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import { words, wordsText, type Words } from '../../i18n/words';
import type { Failure } from '../../../shared/result';

interface ProviderModelsProps {
  /** Set once the provider is saved: only then can Berth ask it for its models. */
  providerId: string | undefined;
  /** The model id the manual-entry box gives as an example. */
  idExample?: string;
  providerLabel: string;
  models: ProviderModel[];
  onChange: (models: ProviderModel[]) => void;
}

/** A message as a sentence: the provider's words may already end in a stop or a question mark. */
function sentence(text: string): string {
  return /[.?!]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** What a listing said that Berth keeps with the model (the listing is the first source for both). */
function listedCapabilities(entry: Pick<ProviderModel, 'reasoning' | 'contextManagement'>): Partial<ProviderModel> {
  return {
    ...(entry.reasoning !== undefined ? { reasoning: entry.reasoning } : {}),
    ...(entry.contextManagement !== undefined ? { contextManagement: entry.contextManagement } : {}),
  };
}

/** The provider's models: fetched from it, or typed in; each with its "supports tools" and "takes images" switches. */
export function ProviderModels({
  providerId,
  providerLabel,
  models,
  onChange,
  idExample = 'llama3.1:8b',
}: ProviderModelsProps) {
  const t = useT();
  const fetchProviderModels = useBerth((s) => s.fetchProviderModels);
  const [newId, setNewId] = useState('');
  // Kept as words or the failure, worded as it renders: a language switch re-words it.
  const [note, setNote] = useState<{ ok: boolean; text: Words } | { ok: false; failure: Failure }>();
  const [fetching, setFetching] = useState(false);
  const inputId = useId();
  const titleId = useId();

  async function fetchModels() {
    if (providerId === undefined) return;
    setFetching(true);
    setNote(undefined);
    const result = await fetchProviderModels(providerId);
    setFetching(false);
    if (!result.ok) {
      setNote({ ok: false, failure: result });
      return;
    }
    // What the person already set (names, tools switches) stays; new models are added after. What only the listing
    // knows (how a model reasons, whether the provider manages its context) is taken afresh for the known ones too.
    const listed = new Map(result.value.models.map((m) => [m.id, m]));
    const known = new Set(models.map((m) => m.id));
    const refreshed = models.map((model): ProviderModel => {
      const entry = listed.get(model.id);
      return entry === undefined ? model : { ...model, ...listedCapabilities(entry) };
    });
    const added = result.value.models
      .filter((m) => !known.has(m.id))
      .map((m): ProviderModel => ({
        id: m.id,
        supportsTools: true,
        // What the provider said (Anthropic lists image input), else Berth's guess from the name; the switch changes it.
        takesImages: m.takesImages ?? guessTakesImages(m.id),
        ...(m.label !== undefined ? { label: m.label } : {}),
        ...(m.contextWindow !== undefined ? { contextWindow: m.contextWindow } : {}),
        ...(m.tier !== undefined ? { tier: m.tier } : {}),
        ...listedCapabilities(m),
      }));
    onChange([...refreshed, ...added]);
    const found = result.value.models.length;
    setNote({
      ok: true,
      text:
        found === 0
          ? words('settings.providers.models.noneListed', { provider: providerLabel })
          : words('settings.providers.models.found', { found, added: added.length }),
    });
  }

  function addTyped() {
    const id = newId.trim();
    if (id === '') return;
    if (models.some((m) => m.id === id)) {
      setNote({ ok: false, text: words('settings.providers.models.duplicate', { id }) });
      return;
    }
    onChange([...models, { id, supportsTools: true, takesImages: guessTakesImages(id) }]);
    setNewId('');
    setNote(undefined);
  }

  const update = (index: number, change: Partial<ProviderModel>) =>
    onChange(models.map((m, i) => (i === index ? { ...m, ...change } : m)));

  return (
    <fieldset className="provider-models" aria-labelledby={titleId}>
      <div className="inline-row">
        <legend id={titleId} className="field-label">
          {t('settings.providers.models.legend')}
        </legend>
        <div className="spacer" />
        {providerId !== undefined ? (
          <Button size="sm" icon={<RestartIcon />} onClick={() => void fetchModels()} disabled={fetching}>
            {t(fetching ? 'settings.providers.models.fetching' : 'settings.providers.models.fetch')}
          </Button>
        ) : (
          <span className="muted small">{t('settings.providers.models.fetchLater')}</span>
        )}
      </div>
      {note ? (
        <p className={note.ok ? 'field-hint' : 'field-error'} role={note.ok ? 'status' : 'alert'}>
          {'failure' in note
            ? t('settings.providers.models.fetchFailed', { reason: sentence(failureText(note.failure)) })
            : wordsText(note.text, t)}
        </p>
      ) : null}
      {models.length === 0 ? (
        <p className="settings-empty">{t('settings.providers.models.empty')}</p>
      ) : (
        <table className="data-table" aria-label={t('settings.providers.models.table', { provider: providerLabel })}>
          <thead>
            <tr>
              <th scope="col">{t('settings.providers.models.col.id')}</th>
              <th scope="col">{t('settings.providers.models.col.name')}</th>
              <th scope="col">{t('settings.providers.models.col.tools')}</th>
              <th scope="col">{t('settings.providers.models.col.images')}</th>
              <th scope="col">
                <span className="sr-only">{t('settings.providers.models.col.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {models.map((model, index) => (
              <tr key={model.id}>
                <td>
                  <code>{model.id}</code>
                </td>
                <td>
                  <input
                    className="input input-sm"
                    aria-label={t('settings.providers.models.nameOf', { model: model.id })}
                    placeholder={model.id}
                    value={model.label ?? ''}
                    onChange={(e) => {
                      const label = e.target.value;
                      const { label: _old, ...rest } = model;
                      onChange(
                        models.map((m, i) => (i === index ? (label.trim() === '' ? rest : { ...rest, label }) : m)),
                      );
                    }}
                  />
                </td>
                <td>
                  <label className="checkbox-label">
                    <input
                      type="checkbox"
                      checked={model.supportsTools}
                      onChange={(e) => update(index, { supportsTools: e.target.checked })}
                      aria-label={t('settings.providers.models.supportsToolsOf', { model: model.id })}
                    />
                    <span aria-hidden="true">{t('settings.providers.models.supportsTools')}</span>
                  </label>
                </td>
                <td>
                  <label className="checkbox-label">
                    <input
                      type="checkbox"
                      checked={takesImages(model)}
                      onChange={(e) => update(index, { takesImages: e.target.checked })}
                      aria-label={t('settings.providers.models.takesImagesOf', { model: model.id })}
                    />
                    <span aria-hidden="true">{t('settings.providers.models.takesImages')}</span>
                  </label>
                </td>
                <td>
                  <IconButton
                    label={t('settings.providers.models.remove', { model: model.id })}
                    icon={<TrashIcon />}
                    onClick={() => onChange(models.filter((_, i) => i !== index))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="inline-row">
        <label className="sr-only" htmlFor={inputId}>
          {t('settings.providers.models.addLabel')}
        </label>
        <input
          id={inputId}
          className="input mono"
          placeholder={t('settings.providers.models.addPlaceholder', { example: idExample })}
          value={newId}
          spellCheck={false}
          onChange={(e) => setNewId(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addTyped();
            }
          }}
        />
        <Button icon={<PlusIcon />} onClick={addTyped} disabled={newId.trim() === ''}>
          {t('settings.providers.models.add')}
        </Button>
      </div>
    </fieldset>
  );
}
