import { useId, useState, type FormEvent } from 'react';
import type { ProviderModel, ProviderView } from '../../../shared/domain/providers';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { ProviderModels } from './provider-models';
import { TestConnection } from './test-connection';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import { words } from '../../i18n/words';
import type { Failure } from '../../../shared/result';

/**
 * The built-in Anthropic provider's models: fetched from Anthropic's models
 * endpoint with the key set above, or typed in; each with the same switches
 * as any provider's models. Its key and base URL are not edited here.
 */
export function AnthropicModelsForm({ provider, onClose }: { provider: ProviderView; onClose: () => void }) {
  const t = useT();
  const updateProvider = useBerth((s) => s.updateProvider);
  const pushToast = useBerth((s) => s.pushToast);
  const [models, setModels] = useState<ProviderModel[]>(provider.models);
  const [error, setError] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const titleId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await updateProvider(provider.id, { models });
    setBusy(false);
    if (!result.ok) {
      setError(result);
      return;
    }
    pushToast({ tone: 'success', title: words('settings.providers.anthropic.saved', { provider: provider.label }) });
    onClose();
  }

  return (
    <form className="provider-form" aria-labelledby={titleId} onSubmit={(e) => void submit(e)} noValidate>
      <h3 id={titleId} className="provider-form-title">
        {t('settings.providers.form.titleEdit', { provider: provider.label })}
      </h3>
      <p className="field-hint">
        {t(provider.key.set ? 'settings.providers.anthropic.hintKeySet' : 'settings.providers.anthropic.hintNoKey')}
      </p>
      <ProviderModels
        providerId={provider.id}
        providerLabel={provider.label}
        models={models}
        onChange={setModels}
        idExample="claude-sonnet-5"
      />
      {error ? <InlineAlert>{failureText(error)}</InlineAlert> : null}
      <div className="provider-form-actions">
        <TestConnection providerId={provider.id} providerLabel={provider.label} />
        <div className="spacer" />
        <Button variant="ghost" onClick={onClose}>
          {t('settings.providers.form.cancel')}
        </Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {t('settings.providers.form.save')}
        </Button>
      </div>
    </form>
  );
}
