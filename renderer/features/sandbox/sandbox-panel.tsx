import { useMemo, useState } from 'react';
import type { ServerState } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button, Chip, InlineAlert } from '../../ui/controls';
import { AllowButton } from './denial-notice';
import { checkDraft, draftChanges, draftFromSettings, type DraftErrors, type SandboxDraft } from './sandbox-draft';
import { SandboxEditor } from './sandbox-editor';
import { denialSentence, draftPolicyLines, homeOf } from './sandbox-words';
import { useSandbox, useSandboxDenials, useSandboxModel, useSandboxPolicy } from './use-sandbox';
import { formatTime } from '../../i18n/format';
import { failureText } from '../../i18n/host-message';
import { useT, type Translate } from '../../i18n/use-t';
import type { Failure } from '../../../shared/result';

const LIVE = new Set<ServerState['status']>(['starting', 'ready', 'restarting']);

/** Whether saving restarts the server, in words; shown before the person saves. */
export function restartNote(server: ServerState, t: Translate): string {
  return LIVE.has(server.status)
    ? t('sandbox.panel.restartOnSave', { server: server.name })
    : t('sandbox.panel.appliedNextStart');
}

/** The server detail's Sandbox tab: the state, the policy in words, the lists, and what was blocked. */
export function SandboxPanel({ server }: { server: ServerState }) {
  const t = useT();
  if (server.config.command === undefined) {
    return (
      <div className="sandbox-panel">
        <p className="muted" data-testid="sandbox-not-applicable">
          {t('sandbox.panel.remote', { server: server.name })}
        </p>
      </div>
    );
  }
  return <LocalSandboxPanel server={server} />;
}

function LocalSandboxPanel({ server }: { server: ServerState }) {
  const t = useT();
  const model = useSandboxModel();
  const support = useSandbox((s) => s.support);
  const settings = useSandbox((s) => s.settings[server.name]);
  const loaded = useSandbox((s) => s.settingsLoaded);
  const policy = useSandboxPolicy(server.name);
  const denials = useSandboxDenials(server.name);
  const pushToast = useBerth((s) => s.pushToast);
  // Null: showing the saved setting. A draft exists from the first change until it is saved or dropped.
  const [draft, setDraft] = useState<SandboxDraft | null>(null);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  // Rows keep their ids until the setting changes, so an input is not replaced under the cursor.
  const fromSettings = useMemo(() => draftFromSettings(settings), [settings]);
  if (!loaded) return <p className="muted">{t('sandbox.panel.loading')}</p>;

  const shown = draft ?? fromSettings;
  const checked = checkDraft(shown, homeOf(policy));
  const dirty = draft !== null && (!checked.ok || draftChanges(checked.choice, settings));
  const lines = draftPolicyLines(
    policy,
    shown.folders.map((row) => row.value),
    shown.domains.map((row) => row.value),
  );

  async function save() {
    const result = checkDraft(shown, homeOf(policy));
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    setBusy(true);
    const saved = await model.setSettings(server.name, { ...result.choice, offered: true });
    setBusy(false);
    if (!saved.ok) return setFailure(saved);
    setFailure(undefined);
    setDraft(null);
    pushToast({
      tone: 'success',
      title: t(saved.value.enabled ? 'sandbox.toast.on' : 'sandbox.toast.off', { server: server.name }),
      ...(LIVE.has(server.status) ? { message: t('sandbox.toast.restarting') } : {}),
    });
  }

  return (
    <div className="sandbox-panel" data-testid="sandbox-panel">
      <p className="sandbox-state" data-testid="sandbox-state">
        {settings?.enabled === true ? (
          <Chip tone="success">{t('sandbox.chip.on')}</Chip>
        ) : (
          <Chip tone="warning">{t('sandbox.chip.off')}</Chip>
        )}{' '}
        {t(settings?.enabled === true ? 'sandbox.panel.stateOn' : 'sandbox.panel.stateOff')}
      </p>
      <SandboxEditor
        draft={shown}
        errors={errors}
        support={support}
        lines={lines}
        onChange={(next) => {
          setDraft(next);
          setFailure(undefined);
        }}
        note={
          dirty ? (
            <p className="sandbox-restart-note" role="note">
              {restartNote(server, t)}
            </p>
          ) : null
        }
      />
      {failure !== undefined ? <InlineAlert>{failureText(failure)}</InlineAlert> : null}
      {dirty ? (
        <div className="sandbox-actions">
          <Button variant="ghost" onClick={() => (setDraft(null), setErrors({}))} disabled={busy}>
            {t('sandbox.action.cancel')}
          </Button>
          <Button variant="primary" onClick={() => void save()} disabled={busy}>
            {t(
              busy
                ? 'sandbox.action.saving'
                : LIVE.has(server.status)
                  ? 'sandbox.action.saveRestart'
                  : 'sandbox.action.save',
            )}
          </Button>
        </div>
      ) : null}
      {denials.length > 0 ? (
        <section className="sandbox-denials" aria-label={t('sandbox.denials.label')}>
          <h3>{t('sandbox.denials.heading')}</h3>
          <ul>
            {[...denials].reverse().map((denial) => (
              <li key={`${denial.at}-${denial.kind}-${denial.target}`}>
                <span>{denialSentence(denial)}</span>
                <span className="muted"> {formatTime(denial.at)}</span> <AllowButton denial={denial} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
