import { useId, useMemo, useState } from 'react';
import type { ToolCallDecision } from '../../../shared/domain/consent';
import { annotationChips } from '../servers/tool-list';
import { Button, Chip } from '../../ui/controls';
import { ShieldIcon, WarningIcon } from '../../ui/icons';
import { ApprovalChangeNotice } from './approval-change';
import { argumentChecker } from './argument-check';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { TurnCalls } from './turn-calls';
import { canonicalJson, parseArgumentsText } from './pending-model';
import { SafeName } from '../shell/safe-name';

type AllowDecision = Exclude<ToolCallDecision, 'deny'>;

/** The allow buttons, narrowest first; the first is the primary action. */
const ALLOW_CHOICES: { decision: AllowDecision; label: string; hint: string }[] = [
  { decision: 'allow-once', label: 'Allow once', hint: 'Run this call; ask again next time.' },
  {
    decision: 'allow-conversation',
    label: 'Allow for this conversation',
    hint: 'Run this tool without asking until this conversation ends or Berth restarts.',
  },
  {
    decision: 'always-tool',
    label: 'Always allow this tool',
    hint: 'Never ask again for this tool of this server. Revoke it in Settings.',
  },
  {
    decision: 'always-server',
    label: 'Always allow this server',
    hint: 'Never ask again for any tool of this server. Revoke it in Settings.',
  },
];

/**
 * Consent for one `tools/call`: who, what, the server's unverified claims, and
 * the full arguments in an editor (only a JSON object can be approved).
 * The header line holds only names Berth vouches for (the server as the person
 * named it, the tool's identifier); the tool's title and description are the
 * server's own words, quoted below it, so a title such as
 * "filesystem › read_file" cannot pass for the header.
 */
/** For an app's call from an open card: its later calls to this tool run while the card stays open. */
const APP_CARD_CHOICE = {
  decision: 'allow-app-card' as const,
  label: 'Allow while the card is open',
  hint: "Run this app's calls to this tool without asking until its card closes.",
};

/** The choices for who asked: an app in an open card gets "while the card is open" instead of "for this conversation". */
function allowChoicesFor(payload: { requestedBy?: 'app'; appCard?: boolean }) {
  if (payload.appCard !== true) return ALLOW_CHOICES;
  return [ALLOW_CHOICES[0]!, APP_CARD_CHOICE, ...ALLOW_CHOICES.slice(2)];
}

export function ToolConsentDialog({ request, answer, busy, error }: PendingDialogProps<'tool-call'>) {
  const { payload } = request;
  const fromApp = payload.requestedBy === 'app';
  const asker = fromApp ? 'the app' : 'the model';
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
        <>
          {fromApp ? 'Allow the app in this card to run' : 'Allow'}{' '}
          <code className="title-code">
            <SafeName name={payload.tool} />
          </code>
          {fromApp ? '?' : ' to run?'}
        </>
      }
      error={error}
      footer={
        <>
          <Button
            variant="danger"
            onClick={deny}
            disabled={busy}
            title={
              payload.appCard
                ? "Refuse this call, and this app's later calls to this tool until its card is shown again."
                : undefined
            }
          >
            Deny
          </Button>
          <div className="spacer" />
          {choices
            .slice(1)
            .reverse()
            .map((choice) => (
              <Button
                key={choice.decision}
                size="sm"
                onClick={() => allow(choice.decision)}
                disabled={busy || !parsed.ok}
                title={choice.hint}
              >
                {choice.label}
              </Button>
            ))}
          <Button
            variant="primary"
            onClick={() => allow('allow-once')}
            disabled={busy || !parsed.ok}
            title={ALLOW_CHOICES[0]!.hint}
          >
            Allow once
          </Button>
        </>
      }
    >
      {payload.requestedBy === 'app' ? (
        <p className="consent-requested-by" data-testid="consent-from-app">
          {payload.appCard
            ? 'Asked from the app in this card, not by the model. While this question is open, its other calls to this tool are not made, and none runs once the card closes.'
            : 'Asked from the app in this card, not by the model.'}
        </p>
      ) : null}
      {payload.approvalChanged ? (
        <ApprovalChangeNotice change={payload.approvalChanged} server={payload.server} />
      ) : null}
      <section className="consent-tool" aria-label="Tool">
        <div className="consent-tool-line" role="heading" aria-level={3}>
          <SafeName className="consent-server" name={payload.server} />
          <span aria-hidden="true" className="muted">
            ›
          </span>
          <SafeName className="tool-name" name={payload.tool} />
          {payload.serverTrusted ? <Chip tone="success">trusted server</Chip> : null}
        </div>
        <div className="consent-server-words" data-testid="tool-server-words">
          <span className="claims-label">
            {payload.serverTrusted ? 'In the words of a server you trust:' : 'In the server’s own words, not verified:'}
          </span>
          {title ? (
            <p className="consent-claimed-title">
              Calls it{' '}
              <q>
                <SafeName name={title} />
              </q>
            </p>
          ) : null}
          {payload.description ? (
            <p className="consent-description">{payload.description}</p>
          ) : (
            <p className="muted small">The server gave no description.</p>
          )}
        </div>
        {chips.length > 0 ? (
          <div className="tool-claims consent-claims">
            <span className="claims-label">
              {payload.annotationsTrusted ? 'Reported by a server you trust:' : 'Claimed by the server, not verified:'}
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
            Arguments
          </label>
          {edited ? <Chip tone="warning">edited</Chip> : null}
          <div className="spacer" />
          {text !== original ? (
            <Button size="sm" variant="ghost" onClick={() => setText(original)}>
              Undo changes
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
            Exactly what {asker} asked for. Edit it to send different arguments to the server
            {fromApp ? '.' : '; the chat keeps both.'}
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
              <strong>The edited arguments do not match what the tool says it takes</strong>
              <ul aria-label="What does not match">
                {check.issues.map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
              </ul>
              <span>You can still send them; the server may refuse them.</span>
            </div>
          </div>
        ) : null}
        {check !== undefined && 'unchecked' in check ? (
          <p className="field-hint" data-testid="argument-schema-unchecked">
            Berth could not check the edited arguments against the tool’s schema: {check.unchecked}
          </p>
        ) : null}
      </div>

      <TurnCalls request={request} />

      <div className="field">
        <label className="field-label" htmlFor={reasonId}>
          Reason if you deny <span className="muted">(optional, told to {asker})</span>
        </label>
        <input
          id={reasonId}
          className="input"
          value={reason}
          maxLength={2000}
          placeholder="e.g. Use the staging database instead"
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
    </PendingFrame>
  );
}
