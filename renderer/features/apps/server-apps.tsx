import { useEffect, useState } from 'react';
import type { ServerApp } from '../../../shared/domain/app-ui';
import type { ServerState } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button, Chip, EmptyState, Field, InlineAlert } from '../../ui/controls';
import { ToolIcon } from '../../ui/icons';
import { AppFrame } from './app-frame';
import { parsePreviewInput, sampleInput } from './sample-input';
import { Dialog, DialogDescription, DialogHeader } from '../../ui/dialog';
import { List, Row } from '../../ui/list';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

/** A preview has no conversation: it stays in the card (no full screen or floating panel inside a dialog). */
const PREVIEW_MODES = ['inline'] as const;

/** The server's tools that have a UI, each with a preview. */
export function ServerApps({ server }: { server: ServerState }) {
  const t = useT();
  const transport = useBerth((s) => s.appsTransport);
  const [apps, setApps] = useState<ServerApp[]>();
  const [error, setError] = useState<Failure>();
  const [previewing, setPreviewing] = useState<ServerApp>();
  const [changes, setChanges] = useState(0);
  const ready = server.status === 'ready';
  // The tools decide which apps there are: listed again when they change.
  const tools = server.status === 'ready' ? server.tools : undefined;

  useEffect(
    () =>
      transport.on('apps.resourcesChanged', (payload) =>
        payload.server === server.name ? setChanges((n) => n + 1) : undefined,
      ),
    [transport, server.name],
  );
  useEffect(() => {
    if (!ready) return;
    let current = true;
    void transport.call('apps.list', { server: server.name }).then((result) => {
      if (!current) return;
      if (result.ok) {
        setApps(result.value);
        setError(undefined);
      } else setError(result);
    });
    return () => {
      current = false;
    };
  }, [transport, server.name, ready, tools, changes]);

  if (!ready) {
    return (
      <EmptyState icon={<ToolIcon />} title={t('apps.list.notReady.title')}>
        {t('apps.list.notReady.body')}
      </EmptyState>
    );
  }
  if (error !== undefined) return <InlineAlert>{t('apps.list.failed', { error: failureText(error) })}</InlineAlert>;
  if (apps === undefined) return <p className="muted">{t('apps.list.loading')}</p>;
  if (apps.length === 0) {
    return (
      <EmptyState icon={<ToolIcon />} title={t('apps.list.none.title')}>
        {t('apps.list.none.body')}
      </EmptyState>
    );
  }
  return (
    <>
      <List look="cards" aria-label={t('apps.list.label', { server: server.name })}>
        {apps.map((app) => (
          <Row key={app.tool} className="apps-list-item">
            <div>
              <strong>{app.title ?? app.tool}</strong> <code className="muted">{app.tool}</code>
              {!app.visibility.includes('model') ? <Chip>{t('apps.list.appOnly')}</Chip> : null}
              {app.description ? <p className="muted small">{app.description}</p> : null}
            </div>
            <div className="spacer" />
            <Button
              size="sm"
              onClick={() => setPreviewing(app)}
              aria-label={t('apps.list.previewNamed', { name: app.title ?? app.tool })}
            >
              {t('apps.list.preview')}
            </Button>
          </Row>
        ))}
      </List>
      <AppPreviewDialog server={server.name} app={previewing} onClose={() => setPreviewing(undefined)} />
    </>
  );
}

function AppPreviewDialog({
  server,
  app,
  onClose,
}: {
  server: string;
  app: ServerApp | undefined;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <Dialog
      open={app !== undefined}
      onOpenChange={(open) => (open ? undefined : onClose())}
      className="dialog-wide"
      aria-describedby="app-preview-description"
    >
      <DialogHeader title={t('apps.preview.title', { name: app?.title ?? app?.tool ?? '' })} />
      <DialogDescription id="app-preview-description">{t('apps.preview.description', { server })}</DialogDescription>
      {app ? <PreviewBody key={app.tool} server={server} app={app} /> : null}
    </Dialog>
  );
}

function PreviewBody({ server, app }: { server: string; app: ServerApp }) {
  const t = useT();
  const [text, setText] = useState(() => JSON.stringify(sampleInput(app.inputSchema), null, 2));
  const [shown, setShown] = useState<{ input: Record<string, unknown>; run: number }>();
  const parsed = parsePreviewInput(text, app.inputSchema);
  return (
    <div className="app-preview">
      <Field
        label={t('apps.preview.arguments')}
        error={parsed.ok ? undefined : parsed.message}
        hint={
          parsed.ok && parsed.issues.length > 0
            ? t('apps.preview.schemaIssues', { issues: parsed.issues.join('; ') })
            : undefined
        }
      >
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            className="input app-preview-input"
            rows={Math.min(12, text.split('\n').length + 1)}
            value={text}
            onChange={(e) => setText(e.target.value)}
            spellCheck={false}
          />
        )}
      </Field>
      <div className="edit-actions">
        <div className="spacer" />
        <Button
          variant="primary"
          disabled={!parsed.ok}
          onClick={() => parsed.ok && setShown((s) => ({ input: parsed.value, run: (s?.run ?? 0) + 1 }))}
        >
          {t(shown ? 'apps.preview.again' : 'apps.preview.show')}
        </Button>
      </div>
      {shown ? (
        <AppFrame
          key={shown.run}
          origin={{ server }}
          tool={app.tool}
          resourceUri={app.resourceUri}
          input={shown.input}
          outcome={undefined}
          heightKey={`preview:${server}:${app.tool}`}
          displayModes={PREVIEW_MODES}
        />
      ) : null}
    </div>
  );
}
