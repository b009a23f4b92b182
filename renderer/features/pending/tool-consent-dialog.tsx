import { useId, useMemo, useState } from 'react';
import type { ToolCallDecision } from '../../../shared/domain/consent';
import { annotationChips } from '../servers/tool-list';
import { Button, Chip } from '../../ui/controls';
import { SAFE_CHOICE } from '../../ui/dialog-focus';
import { submitOnEnter } from '../../ui/submit-on-enter';
import { ShieldIcon, WarningIcon } from '../../ui/icons';
import { ApprovalChangeNotice } from './approval-change';
import { argumentChecker } from './argument-check';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { TurnCalls } from './turn-calls';
import { canonicalJson, parseArgumentsText } from './pending-model';
import { SafeName } from '../shell/safe-name';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

type AllowDecision = Exclude<ToolCallDecision, 'deny'>;

/** The allow buttons, narrowest first; the first is the primary action. Each has `pending.tool.choice.<decision>` and `.hint.<decision>`. */
const ALLOW_CHOICES: AllowDecision[] = ['allow-once', 'allow-conversation', 'always-tool', 'always-server'];

/**
 * Consent for one `tools/call`: who, what, the server's unverified claims, and
 * the full arguments in an editor (only a JSON object can be approved).
 * The header line holds only names Berth vouches for (the server as the person
 * named it, the tool's identifier); the tool's title and description are the
 * server's own words, quoted below it, so a title such as
 * "filesystem › read_file" cannot pass for the header.
 */
/** For an app's call from an open card: its later calls to this tool run while the card stays open. */
const APP_CARD_CHOICE = 'allow-app-card' as const;

/** The choices for who asked: an app in an open card gets "while the card is open" instead of "for this conversation". */
function allowChoicesFor(payload: { requestedBy?: 'app'; appCard?: boolean }) {
  if (payload.appCard !== true) return ALLOW_CHOICES;
  return [ALLOW_CHOICES[0]!, APP_CARD_CHOICE, ...ALLOW_CHOICES.slice(2)];
}

export function ToolConsentDialog({ request, answer, busy, error }: PendingDialogProps<'tool-call'>) {
  const t = useT();
  const { payload } = request;
  const fromApp = payload.requestedBy === 'app';
  const choices = allowChoicesFor(payload);
  const original = useMemo(() => JSON.stringify(payload.arguments, null, 2), [payload.arguments]);
  const [text, setText] = useState(original);
  const [reason, setReason] = useState('');
  const parsed = parseArgumentsText(text);
  const edited = parsed.ok && canonicalJson(parsed.value) !== canonicalJson(payload.arguments);
  const checker = useMemo(
    () => (payload.inputSchema === undefined ? undefined : argumentChecker(payload.inputSchema)),
    [payload.inputSchema],
  );
  // Only an edit is checked: what the model wrote is the server's to judge, and the person sees it as is.
  const check = edited && parsed.ok && checker !== undefined ? checker(parsed.value) : undefined;
  const argsId = useId();
  const reasonId = useId();
  const chips = annotationChips(payload.annotations);
  const title = payload.toolTitle && payload.toolTitle !== payload.tool ? payload.toolTitle : undefined;

  const allow = (decision: AllowDecision) => {
    if (!parsed.ok) return;
    void answer(edited ? { decision, arguments: parsed.value } : { decision });
  };
  const deny = () => {
    const trimmed = reason.trim();
    void answer(trimmed === '' ? { decision: 'deny' } : { decision: 'deny', reason: trimmed });
  };

  return (
    <PendingFrame
      request={request}
      icon={<ShieldIcon />}
      title={
        <T
          id={fromApp ? 'pending.tool.titleFromApp' : 'pending.tool.title'}
          components={{
            tool: (
              <code className="title-code">
                <SafeName name={payload.tool} />
              </code>
            ),
          }}
        />
      }
      error={error}
      footer={
        <>
          <Button
            variant="danger"
            {...SAFE_CHOICE}
            onClick={deny}
            disabled={busy}
            title={payload.appCard ? t('pending.tool.denyAppCardHint') : undefined}
          >
            {t('pending.tool.deny')}
          </Button>
          <div className="spacer" />
          {choices
            .slice(1)
            .reverse()
            .map((choice) => (
              <Button
                key={choice}
                size="sm"
                onClick={() => allow(choice)}
                disabled={busy || !parsed.ok}
                title={t(`pending.tool.hint.${choice}`)}
              >
                {t(`pending.tool.choice.${choice}`)}
              </Button>
            ))}
          <Button
            variant="primary"
            onClick={() => allow('allow-once')}
            disabled={busy || !parsed.ok}
            title={t('pending.tool.hint.allow-once')}
          >
            {t('pending.tool.choice.allow-once')}
          </Button>
        </>
      }
    >
      {payload.requestedBy === 'app' ? (
        <p className="consent-requested-by" data-testid="consent-from-app">
          {t(payload.appCard ? 'pending.tool.fromAppCard' : 'pending.tool.fromApp')}
        </p>
      ) : null}
      {payload.approvalChanged ? (
        <ApprovalChangeNotice change={payload.approvalChanged} server={payload.server} />
      ) : null}
      <section className="consent-tool" aria-label={t('pending.tool.section')}>
        <div className="consent-tool-line" role="heading" aria-level={3}>
          <SafeName className="consent-server" name={payload.server} />
          <span aria-hidden="true" className="muted">
            ›
          </span>
          <SafeName className="tool-name" name={payload.tool} />
          {payload.listedName !== undefined ? (
            <Chip
              tone="warning"
              title={t('pending.tool.listedAsTitle', { name: payload.listedName, renamed: payload.tool })}
            >
              {t('pending.tool.listedAs', { name: payload.listedName })}
            </Chip>
          ) : null}
          {payload.serverTrusted ? <Chip tone="success">{t('pending.tool.trustedServer')}</Chip> : null}
        </div>
        <div className="consent-server-words" data-testid="tool-server-words">
          <span className="claims-label">
            {t(payload.serverTrusted ? 'pending.tool.wordsTrusted' : 'pending.tool.wordsUnverified')}
          </span>
          {title ? (
            <p className="consent-claimed-title">
              <T
                id="pending.tool.callsIt"
                components={{
                  title: (
                    <q>
                      <SafeName name={title} />
                    </q>
                  ),
                }}
              />
            </p>
          ) : null}
          {payload.description ? (
            <p className="consent-description">{payload.description}</p>
          ) : (
            <p className="muted small">{t('pending.tool.noDescription')}</p>
          )}
        </div>
        {chips.length > 0 ? (
          <div className="tool-claims consent-claims">
            <span className="claims-label">
              {t(payload.annotationsTrusted ? 'pending.tool.claimsTrusted' : 'pending.tool.claimsUnverified')}
            </span>
            {chips.map((chip) => (
              <Chip key={chip.label} tone={chip.tone}>
                {chip.label}
              </Chip>
            ))}
          </div>
        ) : null}
      </section>

      <div className="field">
        <div className="field-label-row">
          <label className="field-label" htmlFor={argsId}>
            {t('pending.tool.arguments')}
          </label>
          {edited ? <Chip tone="warning">{t('pending.tool.edited')}</Chip> : null}
          <div className="spacer" />
          {text !== original ? (
            <Button size="sm" variant="ghost" onClick={() => setText(original)}>
              {t('pending.tool.undo')}
            </Button>
          ) : null}
        </div>
        <textarea
          id={argsId}
          className="input mono json-editor"
          value={text}
          spellCheck={false}
          aria-invalid={!parsed.ok}
          aria-describedby={`${argsId}-help`}
          rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
          onChange={(event) => setText(event.target.value)}
        />
        {!parsed.ok ? (
          <p className="field-error" id={`${argsId}-help`} role="alert">
            {parsed.error}
          </p>
        ) : (
          <p className="field-hint" id={`${argsId}-help`}>
            {t(fromApp ? 'pending.tool.argsHintApp' : 'pending.tool.argsHintModel')}
          </p>
        )}
        {check !== undefined && 'issues' in check && check.issues.length > 0 ? (
          <div
            className="banner banner-warning compact schema-warning"
            role="status"
            data-testid="argument-schema-warning"
          >
            <WarningIcon />
            <div className="banner-text">
              <strong>{t('pending.tool.schemaMismatch')}</strong>
              <ul aria-label={t('pending.tool.schemaIssues')}>
                {check.issues.map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
              </ul>
              <span>{t('pending.tool.schemaStillSend')}</span>
            </div>
          </div>
        ) : null}
        {check !== undefined && 'unchecked' in check ? (
          <p className="field-hint" data-testid="argument-schema-unchecked">
            {t('pending.tool.schemaUnchecked', { reason: check.unchecked })}
          </p>
        ) : null}
      </div>

      <TurnCalls request={request} />

      <div className="field">
        <label className="field-label" htmlFor={reasonId}>
          <T
            id="pending.tool.reasonLabel"
            values={{ asker: fromApp ? 'app' : 'model' }}
            components={{ note: <span className="muted" /> }}
          />
        </label>
        <input
          id={reasonId}
          className="input"
          value={reason}
          maxLength={2000}
          placeholder={t('pending.tool.reasonPlaceholder')}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={submitOnEnter(() => {
            if (!busy) deny();
          })}
        />
      </div>
    </PendingFrame>
  );
}
