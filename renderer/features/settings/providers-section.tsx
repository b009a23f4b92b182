import { useId, useState } from 'react';
import { PRESET_INFO, type ProviderView } from '../../../shared/domain/providers';
import { useBerth } from '../../store';
import { Button, Chip, InlineAlert } from '../../ui/controls';
import { EditIcon, PlusIcon, ServerIcon, TrashIcon } from '../../ui/icons';
import { AnthropicModelsForm } from './anthropic-models-form';
import { ProviderForm } from './provider-form';
import { TestConnection } from './test-connection';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';
import { List, Row } from '../../ui/list';

function presetLabel(provider: ProviderView): string {
  return provider.preset === 'anthropic' ? 'Built in' : PRESET_INFO[provider.preset].label;
}

function KeyChip({ provider }: { provider: ProviderView }) {
  if (provider.key.set)
    return <Chip tone="success">Key set {provider.key.hint ? <code>{provider.key.hint}</code> : null}</Chip>;
  if (!provider.needsKey) return <Chip>No key needed</Chip>;
  return <Chip tone="warning">Key needed</Chip>;
}

/** Which form is open: none, a new provider, or the one being edited (by id). */
type Editing = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; id: string; justAdded: boolean };

/** Settings → Model providers: Anthropic built in, and OpenAI-compatible services and local servers beside it. */
export function ProvidersSection() {
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
          <ServerIcon /> Model providers
        </h2>
        <div className="spacer" />
        {editing.mode === 'closed' ? (
          <Button size="sm" variant="primary" icon={<PlusIcon />} onClick={() => setEditing({ mode: 'add' })}>
            Add provider
          </Button>
        ) : null}
      </header>
      <p className="settings-text">
        Chat with Claude, or with models from OpenAI, OpenRouter, a local Ollama or LM Studio, or any OpenAI-compatible
        server. Keys are kept as secrets and never shown again; local servers need none.
      </p>
      {providers === undefined ? (
        <p className="settings-empty">Loading…</p>
      ) : (
        <List aria-label="Model providers">
          {providers.map((provider) => (
            <Row key={provider.id} className="provider-row" data-provider={provider.id}>
              <div className="provider-main">
                <strong>{provider.label}</strong>
                <Chip tone={provider.builtIn ? 'accent' : 'neutral'}>{presetLabel(provider)}</Chip>
                <KeyChip provider={provider} />
                <span className="muted small">
                  {provider.models.length === 1 ? '1 model' : `${provider.models.length} models`}
                  {provider.baseUrl ? (
                    <>
                      {' · '}
                      <code>{provider.baseUrl}</code>
                    </>
                  ) : null}
                </span>
              </div>
              <div className="provider-actions">
                <TestConnection providerId={provider.id} providerLabel={provider.label} />
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<EditIcon />}
                  aria-label={`Edit ${provider.label}`}
                  onClick={() => setEditing({ mode: 'edit', id: provider.id, justAdded: false })}
                >
                  Edit
                </Button>
                {provider.builtIn ? null : (
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<TrashIcon />}
                    aria-label={`Remove ${provider.label}`}
                    onClick={() => setRemoving(provider)}
                  >
                    Remove
                  </Button>
                )}
              </div>
              {provider.builtIn ? (
                <p className="field-hint provider-note">
                  Its key is set above. Edit it to fetch its models from Anthropic, or to type their ids.
                </p>
              ) : null}
            </Row>
          ))}
        </List>
      )}
      {providers !== undefined && configured.length === 0 && editing.mode === 'closed' ? (
        <p className="settings-empty">
          No other providers yet. Add one to use OpenAI, OpenRouter, or a model running on this computer.
        </p>
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
  const removeProvider = useBerth((s) => s.removeProvider);
  const pushToast = useBerth((s) => s.pushToast);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    const result = await removeProvider(provider.id);
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    pushToast({ tone: 'success', title: `${provider.label} removed` });
    onRemoved();
    onClose();
  }

  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()} className="dialog-narrow">
      <AlertDialogTitle>Remove {provider.label}?</AlertDialogTitle>
      <AlertDialogDescription>
        Its models leave the model pickers{provider.key.set ? ' and its stored key is deleted' : ''}. Conversations that
        use one of its models are kept; their next message says the provider is gone, and you can pick another model.
      </AlertDialogDescription>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">Keep it</Button>
        </AlertDialogCancel>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          Remove
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}
