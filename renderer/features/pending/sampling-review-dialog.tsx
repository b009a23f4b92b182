import { useId, useState } from 'react';
import type { SamplingResponse } from '../../../shared/domain/pending';
import { Button, Chip } from '../../ui/controls';
import { SAFE_CHOICE } from '../../ui/dialog-focus';
import { submitOnEnter } from '../../ui/submit-on-enter';
import { SparkleIcon } from '../../ui/icons';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SamplingBlockView } from './sampling-blocks';
import {
  blocksOf,
  editableMessages,
  formatPriority,
  groupByProvider,
  messagesEdited,
  modelWhy,
  modelWithProvider,
  withBlockText,
} from './sampling-model';
import { checkTemperature, SamplingTemperatureFact } from './sampling-temperature';
import { checkMaxTokens, SamplingTokenFacts } from './sampling-tokens';
import { SafeName } from '../shell/safe-name';
import { SamplingFloodBar } from './sampling-flood';
import { formatNumber } from '../../i18n/format';
import { samplingChoiceText } from './sampling-choice-text';
import { hostText } from '../../i18n/host-message';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

/**
 * Stage 1 of a sampling request: everything the server asked for, editable
 * (messages and system prompt) before anything reaches a model.
 */
export function SamplingReviewDialog({ request, answer, busy, error }: PendingDialogProps<'sampling'>) {
  const t = useT();
  const { payload } = request;
  const req = payload.request;
  const [messages, setMessages] = useState(() => editableMessages(req.messages));
  const [system, setSystem] = useState(req.systemPrompt ?? '');
  const [model, setModel] = useState(payload.model.id);
  const [reason, setReason] = useState('');
  const [allowForSession, setAllowForSession] = useState(false);
  const [maxTokensText, setMaxTokensText] = useState(() => String(payload.tokens.proposed));
  const [temperatureText, setTemperatureText] = useState(() =>
    req.temperature === undefined ? '' : String(req.temperature),
  );
  const ids = {
    system: useId(),
    model: useId(),
    reason: useId(),
    session: useId(),
    maxTokens: useId(),
    temperature: useId(),
  };
  const maxTokens = checkMaxTokens(maxTokensText, payload.tokens);
  const temperature = checkTemperature(temperatureText);
  const temperatureEdited = 'value' in temperature && temperature.value !== (req.temperature ?? null);
  const models = payload.models.some((m) => m.id === payload.model.id)
    ? payload.models
    : [payload.model, ...payload.models];
  const edited = messagesEdited(req.messages, messages);
  const systemEdited = system !== (req.systemPrompt ?? '');
  const prefs = req.modelPreferences;
  const priorities = (
    [
      ['cost', formatPriority(prefs?.costPriority)],
      ['speed', formatPriority(prefs?.speedPriority)],
      ['intelligence', formatPriority(prefs?.intelligencePriority)],
    ] as const
  ).filter((p): p is readonly ['cost' | 'speed' | 'intelligence', string] => p[1] !== undefined);
  const hints = (prefs?.hints ?? []).map((h) => h.name).filter((n): n is string => n !== undefined);

  // "Allow for this session" never keeps the server's preference: the person's pick, else their default model.
  const selected = models.find((m) => m.id === model);
  const picked = model !== payload.model.id ? selected : undefined;
  const sessionModel =
    picked !== undefined
      ? t('pending.sampling.pickedModel', { model: modelWithProvider(picked) })
      : t('pending.sampling.defaultModel', { model: modelWithProvider(payload.defaultModel) });
  const groups = groupByProvider(models);

  const approve = () => {
    if ('error' in maxTokens || 'error' in temperature) return;
    const response: SamplingResponse = {
      decision: 'approve',
      ...(edited ? { messages } : {}),
      ...(systemEdited ? { systemPrompt: system } : {}),
      ...(model !== payload.model.id ? { model } : {}),
      ...(maxTokens.value !== payload.tokens.proposed ? { maxTokens: maxTokens.value } : {}),
      ...(temperatureEdited ? { temperature: temperature.value } : {}),
      ...(allowForSession ? { allowForSession: true } : {}),
    };
    void answer(response);
  };
  const reject = () => {
    const trimmed = reason.trim();
    void answer(trimmed === '' ? { decision: 'reject' } : { decision: 'reject', reason: trimmed });
  };

  return (
    <PendingFrame
      request={request}
      icon={<SparkleIcon />}
      title={t('pending.sampling.title')}
      error={error}
      footer={
        <>
          {allowForSession ? (
            <p className="session-note" id={`${ids.session}-note`} data-testid="session-note">
              <T
                id="pending.sampling.sessionNote"
                values={{
                  model: sessionModel,
                  maxTokens: formatNumber(payload.tokens.limits.maxTokens),
                  budget: formatNumber(payload.tokens.limits.sessionBudget),
                }}
                components={{
                  server: (
                    <strong>
                      <SafeName name={request.server} />
                    </strong>
                  ),
                  model: <strong />,
                }}
              />
            </p>
          ) : null}
          <Button variant="danger" {...SAFE_CHOICE} onClick={reject} disabled={busy}>
            {t('pending.sampling.reject')}
          </Button>
          <div className="spacer" />
          <label className="check-inline" htmlFor={ids.session}>
            <input
              id={ids.session}
              type="checkbox"
              checked={allowForSession}
              aria-describedby={allowForSession ? `${ids.session}-note` : undefined}
              onChange={(e) => setAllowForSession(e.target.checked)}
            />
            {/* One inline run: the label is a flex row, whose gap would split the sentence around the name. */}
            <span>
              <T id="pending.sampling.dontAsk" components={{ server: <SafeName name={request.server} /> }} />
            </span>
          </label>
          <Button variant="primary" onClick={approve} disabled={busy || 'error' in maxTokens || 'error' in temperature}>
            {t('pending.sampling.approve')}
          </Button>
        </>
      }
    >
      <SamplingFloodBar server={request.server} />
      <p className="muted">
        <T
          id="pending.sampling.intro"
          components={{
            server: (
              <strong className="text">
                <SafeName name={request.server} />
              </strong>
            ),
          }}
        />
      </p>

      <dl className="sampling-facts">
        <dt>
          <label htmlFor={ids.model}>{t('pending.sampling.model')}</label>
        </dt>
        <dd>
          <div className="inline-row">
            <select
              id={ids.model}
              className="input select-input"
              value={model}
              aria-describedby={`${ids.model}-why`}
              onChange={(e) => setModel(e.target.value)}
            >
              {groups.map((group) =>
                group.provider === undefined ? (
                  group.models.map((m) => <ModelOption key={m.id} id={m.id} label={m.label} />)
                ) : (
                  <optgroup key={group.provider} label={group.provider}>
                    {group.models.map((m) => (
                      <ModelOption key={m.id} id={m.id} label={m.label} />
                    ))}
                  </optgroup>
                ),
              )}
            </select>
            {selected?.provider !== undefined ? (
              <span className="muted small" data-testid="model-provider">
                {t('pending.sampling.fromProvider', { provider: selected.provider })}
              </span>
            ) : null}
          </div>
          <p className="fact-note" id={`${ids.model}-why`} data-testid="model-why">
            {modelWhy(
              payload.model,
              payload.explanationChoice !== undefined
                ? samplingChoiceText(payload.explanationChoice)
                : hostText(payload.explanationMessage, payload.explanation),
              selected,
            )}
          </p>
        </dd>
        <dt>{t('pending.sampling.preferences')}</dt>
        <dd>
          {hints.length === 0 && priorities.length === 0 ? (
            <span className="muted">{t('pending.sampling.noneGiven')}</span>
          ) : null}
          <div className="chips">
            {hints.map((hint) => (
              <Chip key={hint} tone="accent">
                {t('pending.sampling.hint', { hint })}
              </Chip>
            ))}
            {priorities.map(([name, value]) => (
              <Chip key={name}>
                {t(`pending.sampling.priority.${name}`)} {value}
              </Chip>
            ))}
          </div>
        </dd>
        <SamplingTokenFacts
          tokens={payload.tokens}
          id={ids.maxTokens}
          text={maxTokensText}
          error={'error' in maxTokens ? maxTokens.error : undefined}
          onText={setMaxTokensText}
        />
        <SamplingTemperatureFact
          id={ids.temperature}
          requested={req.temperature}
          text={temperatureText}
          error={'error' in temperature ? temperature.error : undefined}
          onText={setTemperatureText}
        />
        <dt>{t('pending.sampling.stopSequences')}</dt>
        <dd>
          {req.stopSequences && req.stopSequences.length > 0 ? (
            <div className="chips">
              {req.stopSequences.map((s) => (
                <code key={s}>{JSON.stringify(s)}</code>
              ))}
            </div>
          ) : (
            <span className="muted">{t('pending.sampling.none')}</span>
          )}
        </dd>
        <dt>{t('pending.sampling.context')}</dt>
        <dd>
          {req.includeContext ? (
            t(`pending.sampling.context.${req.includeContext}`)
          ) : (
            <span className="muted">{t('pending.sampling.notAsked')}</span>
          )}
        </dd>
        {req.tools && req.tools.length > 0 ? (
          <>
            <dt>{t('pending.sampling.toolsOffered')}</dt>
            <dd className="chips">
              {req.tools.map((tool) => (
                <code key={tool.name} title={tool.description}>
                  {tool.name}
                </code>
              ))}
            </dd>
          </>
        ) : null}
      </dl>

      <div className="field">
        <div className="field-label-row">
          <label className="field-label" htmlFor={ids.system}>
            {t('pending.sampling.systemPrompt')}
          </label>
          {systemEdited ? <Chip tone="warning">{t('pending.sampling.edited')}</Chip> : null}
        </div>
        <textarea
          id={ids.system}
          className="input sampling-textarea"
          value={system}
          rows={2}
          placeholder={t('pending.sampling.noSystemPrompt')}
          onChange={(e) => setSystem(e.target.value)}
        />
      </div>

      <section className="sampling-messages" aria-label={t('pending.sampling.messages')}>
        <div className="field-label-row">
          <span className="field-label">{t('pending.sampling.messages')}</span>
          {edited ? <Chip tone="warning">{t('pending.sampling.edited')}</Chip> : null}
          <div className="spacer" />
          {edited ? (
            <Button size="sm" variant="ghost" onClick={() => setMessages(editableMessages(req.messages))}>
              {t('pending.sampling.undo')}
            </Button>
          ) : null}
        </div>
        {messages.map((message, m) => (
          <div key={m} className={`sampling-message role-${message.role}`}>
            <span className="sampling-role">{t('pending.sampling.role', { role: message.role })}</span>
            {blocksOf(message.content).map((block, b) => (
              <SamplingBlockView
                key={b}
                block={block}
                label={
                  blocksOf(message.content).length > 1
                    ? t('pending.sampling.messagePartLabel', { n: m + 1, role: message.role, part: b + 1 })
                    : t('pending.sampling.messageLabel', { n: m + 1, role: message.role })
                }
                onText={(text) => setMessages((current) => withBlockText(current, m, b, text))}
              />
            ))}
          </div>
        ))}
      </section>

      <div className="field">
        <label className="field-label" htmlFor={ids.reason}>
          <T id="pending.sampling.reasonLabel" components={{ note: <span className="muted" /> }} />
        </label>
        <input
          id={ids.reason}
          className="input"
          value={reason}
          maxLength={2000}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={submitOnEnter(() => {
            if (!busy) reject();
          })}
        />
      </div>
    </PendingFrame>
  );
}

function ModelOption({ id, label }: { id: string; label: string }) {
  return <option value={id}>{label}</option>;
}
