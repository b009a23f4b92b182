import { useId, useState } from 'react';
import type { ProviderView } from '../../../shared/domain/providers';
import { useBerth } from '../../store';
import { Button, Chip, InlineAlert } from '../../ui/controls';
import { EditIcon, PlusIcon, ServerIcon, TrashIcon } from '../../ui/icons';
import { AnthropicModelsForm } from './anthropic-models-form';
import { ProviderForm } from './provider-form';
import { TestConnection } from './test-connection';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';
import { List, Row } from '../../ui/list';
import { T } from '../../i18n/t';
import { useT, type Translate } from '../../i18n/use-t';
import { presetName } from './preset-name';
import { failureText } from '../../i18n/host-message';
import { words } from '../../i18n/words';
import type { Failure } from '../../../shared/result';

function presetLabel(t: Translate, provider: ProviderView): string {
  return provider.preset === 'anthropic' ? t('settings.providers.builtIn') : presetName(t, provider.preset);
}

function KeyChip({ provider }: { provider: ProviderView }) {
  const t = useT();
  if (provider.key.set)
    return (
      <Chip tone="success">
        {provider.key.hint ? (
          <T id="settings.providers.keySetHint" values={{ hint: provider.key.hint }} components={{ code: <code /> }} />
        ) : (
          t('settings.providers.keySet')
        )}
      </Chip>
    );
  if (!provider.needsKey) return <Chip>{t('settings.providers.keyNotNeeded')}</Chip>;
  return <Chip tone="warning">{t('settings.providers.keyNeeded')}</Chip>;
}

/** Which form is open: none, a new provider, or the one being edited (by id). */
type Editing = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; id: string; justAdded: boolean };

/** Settings → Model providers: Anthropic built in, and OpenAI-compatible services and local servers beside it. */
export function ProvidersSection() {
  const t = useT();
  const providers = useBerth((s) => s.providers);
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' });
  const [removing, setRemoving] = useState<ProviderView>();
  const titleId = useId();
  const editedProvider = editing.mode === 'edit' ? providers?.find((p) => p.id === editing.id) : undefined;
  const configured = providers?.filter((p) => !p.builtIn) ?? [];

  return (
    <section className="settings-section" aria-labelledby={titleId}>
      <header className="settings-section-head">
        <h2 id={titleId}>
          <ServerIcon /> {t('settings.providers.title')}
        </h2>
        <div className="spacer" />
        {editing.mode === 'closed' ? (
          <Button size="sm" variant="primary" icon={<PlusIcon />} onClick={() => setEditing({ mode: 'add' })}>
            {t('settings.providers.add')}
          </Button>
        ) : null}
      </header>
      <p className="settings-text">{t('settings.providers.about')}</p>
      {providers === undefined ? (
        <p className="settings-empty">{t('settings.loading')}</p>
      ) : (
        <List aria-label={t('settings.providers.title')}>
          {providers.map((provider) => (
            <Row key={provider.id} className="provider-row" data-provider={provider.id}>
              <div className="provider-main">
                <strong>{provider.label}</strong>
                <Chip tone={provider.builtIn ? 'accent' : 'neutral'}>{presetLabel(t, provider)}</Chip>
                <KeyChip provider={provider} />
                <span className="muted small">
                  {provider.baseUrl ? (
                    <T
                      id="settings.providers.modelCountAt"
                      values={{ count: provider.models.length, url: provider.baseUrl }}
                      components={{ code: <code /> }}
                    />
                  ) : (
                    t('settings.providers.modelCount', { count: provider.models.length })
                  )}
                </span>
              </div>
              <div className="provider-actions">
                <TestConnection providerId={provider.id} providerLabel={provider.label} />
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<EditIcon />}
                  aria-label={t('settings.providers.editOf', { provider: provider.label })}
                  onClick={() => setEditing({ mode: 'edit', id: provider.id, justAdded: false })}
                >
                  {t('settings.providers.edit')}
                </Button>
                {provider.builtIn ? null : (
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<TrashIcon />}
                    aria-label={t('settings.providers.removeOf', { provider: provider.label })}
                    onClick={() => setRemoving(provider)}
                  >
                    {t('settings.providers.remove')}
                  </Button>
                )}
              </div>
              {provider.builtIn ? (
                <p className="field-hint provider-note">{t('settings.providers.builtInNote')}</p>
              ) : null}
            </Row>
          ))}
        </List>
      )}
      {providers !== undefined && configured.length === 0 && editing.mode === 'closed' ? (
        <p className="settings-empty">{t('settings.providers.empty')}</p>
      ) : null}
      {editing.mode === 'add' ? (
        <ProviderForm
          key="add"
          takenIds={providers?.map((p) => p.id) ?? []}
          onAdded={(id) => setEditing({ mode: 'edit', id, justAdded: true })}
          onClose={() => setEditing({ mode: 'closed' })}
        />
      ) : editedProvider?.builtIn === true ? (
        <AnthropicModelsForm
          key={editedProvider.id}
          provider={editedProvider}
          onClose={() => setEditing({ mode: 'closed' })}
        />
      ) : editedProvider !== undefined && editing.mode === 'edit' ? (
        <ProviderForm
          key={editedProvider.id}
          provider={editedProvider}
          justAdded={editing.justAdded}
          takenIds={[]}
          onClose={() => setEditing({ mode: 'closed' })}
        />
      ) : null}
      {removing ? (
        <RemoveProviderDialog
          provider={removing}
          onClose={() => setRemoving(undefined)}
          onRemoved={() => editing.mode === 'edit' && editing.id === removing.id && setEditing({ mode: 'closed' })}
        />
      ) : null}
    </section>
  );
}

function RemoveProviderDialog({
  provider,
  onClose,
  onRemoved,
}: {
  provider: ProviderView;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const t = useT();
  const removeProvider = useBerth((s) => s.removeProvider);
  const pushToast = useBerth((s) => s.pushToast);
  const [error, setError] = useState<Failure>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    const result = await removeProvider(provider.id);
    setBusy(false);
    if (!result.ok) {
      setError(result);
      return;
    }
    pushToast({ tone: 'success', title: words('settings.providers.removed', { provider: provider.label }) });
    onRemoved();
    onClose();
  }

  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()} className="dialog-narrow">
      <AlertDialogTitle>{t('settings.providers.removeDialog.title', { provider: provider.label })}</AlertDialogTitle>
      <AlertDialogDescription>
        {t(provider.key.set ? 'settings.providers.removeDialog.bodyWithKey' : 'settings.providers.removeDialog.body')}
      </AlertDialogDescription>
      {error ? <InlineAlert>{failureText(error)}</InlineAlert> : null}
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">{t('settings.providers.removeDialog.keep')}</Button>
        </AlertDialogCancel>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {t('settings.providers.removeDialog.confirm')}
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}
