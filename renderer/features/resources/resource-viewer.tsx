import { useCallback, useEffect, useState } from 'react';
import type { ResourcePart } from '../../../shared/contract/resources';
import { resourceKey, useBerth, useBerthStore } from '../../store';
import { Button, Chip, EmptyState } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { ChatIcon, RestartIcon, SearchIcon } from '../../ui/icons';
import { ResourcePartView } from './resource-preview';
import { resourceAttachments } from './resource-model';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import { words } from '../../i18n/words';
import type { Failure } from '../../../shared/result';

/** The resource open in the preview pane. */
export interface OpenResource {
  uri: string;
  /** Name or title shown above the preview and on the chat chip. */
  label: string;
}

type ReadState =
  | { status: 'loading' }
  // The failure, not its words: a language switch re-words it.
  | { status: 'error'; failure: Failure }
  | { status: 'ready'; contents: ResourcePart[] };

/** Preview of one resource with its actions: Subscribe, Re-read, Attach to chat. */
export function ResourceViewer({
  server,
  open,
  canSubscribe,
}: {
  server: string;
  open: OpenResource | undefined;
  canSubscribe: boolean;
}) {
  const store = useBerthStore();
  const readResource = useBerth((s) => s.readResource);
  const setResourceSubscribed = useBerth((s) => s.setResourceSubscribed);
  const toastFailure = useBerth((s) => s.toastFailure);
  const subscribed = useBerth((s) => open !== undefined && (s.resourceSubscriptions[server] ?? []).includes(open.uri));
  const updates = useBerth((s) => (open !== undefined ? (s.resourceUpdates[resourceKey(server, open.uri)] ?? 0) : 0));
  const [read, setRead] = useState<ReadState | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const uri = open?.uri;
  const t = useT();

  const reread = useCallback(async () => {
    if (uri === undefined) return;
    setRead({ status: 'loading' });
    const result = await readResource({ server, uri });
    setRead(result.ok ? { status: 'ready', contents: result.value.contents } : { status: 'error', failure: result });
  }, [readResource, server, uri]);

  useEffect(() => {
    void reread();
  }, [reread]);

  if (open === undefined) {
    return (
      <div className="resource-viewer resource-viewer-empty">
        <EmptyState icon={<SearchIcon />} title={t('resources.viewer.pick')}>
          {t('resources.viewer.pickHint')}
        </EmptyState>
      </div>
    );
  }

  const toggleSubscription = async (next: boolean) => {
    setBusy(true);
    const result = await setResourceSubscribed(server, open.uri, next);
    setBusy(false);
    if (!result.ok)
      toastFailure(
        next ? words('resources.viewer.subscribeFailed') : words('resources.viewer.unsubscribeFailed'),
        result,
      );
  };

  const attach = async () => {
    if (read?.status !== 'ready') return;
    const state = store.getState();
    let conversationId = state.activeConversationId;
    if (conversationId === undefined) {
      const created = await state.createConversation();
      if (!created.ok) {
        toastFailure(words('resources.viewer.conversationFailed'), created);
        return;
      }
      conversationId = created.value.id;
    }
    state.attachToComposer(conversationId, resourceAttachments(server, open.label, read.contents));
    state.showView('chat');
  };

  return (
    <div
      className="resource-viewer"
      role="region"
      aria-label={t('resources.viewer.preview', { name: open.label })}
      data-uri={open.uri}
    >
      <header className="resource-viewer-head">
        <div className="resource-viewer-title">
          <strong>{open.label}</strong>
          {open.label !== open.uri ? <code className="wrap">{open.uri}</code> : null}
        </div>
        {updates > 0 ? (
          <span className="resource-updated" role="status" data-testid="resource-updated">
            <Chip tone="warning">{t('resources.viewer.updated', { count: updates })}</Chip>
          </span>
        ) : null}
        {canSubscribe ? (
          <label className="resource-subscribe">
            <Switch
              checked={subscribed}
              disabled={busy}
              label={t('resources.viewer.subscribeLabel')}
              onCheckedChange={(next) => void toggleSubscription(next)}
            />
            <span>{t('resources.viewer.subscribe')}</span>
          </label>
        ) : null}
        <Button size="sm" icon={<RestartIcon />} onClick={() => void reread()} disabled={read?.status === 'loading'}>
          {t('resources.viewer.reread')}
        </Button>
        <Button
          size="sm"
          variant="primary"
          icon={<ChatIcon />}
          onClick={() => void attach()}
          disabled={read?.status !== 'ready' || read.contents.length === 0}
        >
          {t('resources.viewer.attach')}
        </Button>
      </header>
      <div className="resource-viewer-body">
        {read === undefined || read.status === 'loading' ? (
          <p className="muted">{t('resources.viewer.reading')}</p>
        ) : null}
        {read?.status === 'error' ? (
          <p className="resource-error" role="alert">
            {failureText(read.failure)}
          </p>
        ) : null}
        {read?.status === 'ready' && read.contents.length === 0 ? (
          <p className="muted">{t('resources.viewer.empty')}</p>
        ) : null}
        {read?.status === 'ready'
          ? read.contents.map((part, index) => (
              <section key={index} className="resource-part" aria-label={part.uri}>
                {read.contents.length > 1 || part.uri !== open.uri || part.mimeType !== undefined ? (
                  <div className="resource-part-head">
                    {part.uri !== open.uri ? <code>{part.uri}</code> : null}
                    {part.mimeType !== undefined ? <span className="muted small">{part.mimeType}</span> : null}
                  </div>
                ) : null}
                <ResourcePartView part={part} />
              </section>
            ))
          : null}
      </div>
    </div>
  );
}
