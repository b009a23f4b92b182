import { Collapsible } from 'radix-ui';
import { useId, useState } from 'react';
import { splitModelKey } from '../../../shared/domain/model-key';
import { Button, Chip } from '../../ui/controls';
import { SAFE_CHOICE } from '../../ui/dialog-focus';
import { submitOnEnter } from '../../ui/submit-on-enter';
import { ChevronRightIcon, SparkleIcon } from '../../ui/icons';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SamplingBlockView } from './sampling-blocks';
import { blocksOf, contentEdited, modelWithProvider, withAnswerText } from './sampling-model';
import { SafeName } from '../shell/safe-name';
import { ThinkingBlock } from '../chat/thinking-block';
import { SamplingFloodBar } from './sampling-flood';
import { formatNumber } from '../../i18n/format';
import { T } from '../../i18n/t';
import { useT, type Translate } from '../../i18n/use-t';

/** Stage 2 of a sampling request: the model's answer, editable, before it goes back to the server. */
export function SamplingAnswerDialog({ request, answer, busy, error }: PendingDialogProps<'sampling-answer'>) {
  const t = useT();
  const { payload } = request;
  const original = payload.result.content;
  const [content, setContent] = useState(() => blocksOf(original));
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const edited = contentEdited(original, content);
  const asked = payload.request.messages.at(-1);

  const approve = () => {
    // A single block goes back as a single block, as the server most likely expects.
    const edit = content.length === 1 ? content[0]! : content;
    void answer(edited ? { decision: 'approve', content: edit } : { decision: 'approve' });
  };
  const reject = () => {
    const trimmed = reason.trim();
    void answer(trimmed === '' ? { decision: 'reject' } : { decision: 'reject', reason: trimmed });
  };

  return (
    <PendingFrame
      request={request}
      icon={<SparkleIcon />}
      title={t('pending.answer.title')}
      error={error}
      footer={
        <>
          <Button variant="danger" {...SAFE_CHOICE} onClick={reject} disabled={busy}>
            {t('pending.sampling.reject')}
          </Button>
          <div className="spacer" />
          <Button variant="primary" onClick={approve} disabled={busy}>
            {t(edited ? 'pending.answer.sendEdited' : 'pending.answer.approve')}
          </Button>
        </>
      }
    >
      <SamplingFloodBar server={request.server} />
      <p className="muted">
        <T
          id="pending.answer.wrote"
          values={{
            reportedAs: answeredAs(t, payload.model.id, payload.answeredBy),
            stopped:
              payload.result.stopReason && payload.result.stopReason !== 'endTurn' ? payload.result.stopReason : 'none',
          }}
          components={{
            model: (
              <strong className="text" data-testid="answered-by">
                {modelWithProvider(payload.model)}
              </strong>
            ),
            server: (
              <strong className="text">
                <SafeName name={request.server} />
              </strong>
            ),
          }}
        />
      </p>
      {payload.result.usage ? (
        <p className="muted" data-testid="answer-usage">
          {t(
            payload.result.usage.reasoningTokens !== undefined
              ? 'pending.answer.usageReasoning'
              : 'pending.answer.usage',
            {
              input: formatNumber(payload.result.usage.inputTokens),
              output: formatNumber(payload.result.usage.outputTokens),
              reasoning: formatNumber(payload.result.usage.reasoningTokens ?? 0),
              max: formatNumber(payload.request.maxTokens),
            },
          )}
        </p>
      ) : null}
      {asked ? (
        <Collapsible.Root className="sampling-asked">
          <Collapsible.Trigger className="advanced-trigger">
            <ChevronRightIcon /> {t('pending.answer.asked')}
          </Collapsible.Trigger>
          <Collapsible.Content className="sampling-asked-body">
            {blocksOf(asked.content).map((block, b) => (
              <SamplingBlockView key={b} block={block} label={t('pending.answer.requestPart', { n: b + 1 })} readOnly />
            ))}
          </Collapsible.Content>
        </Collapsible.Root>
      ) : null}
      {payload.result.reasoning !== undefined ? (
        <div className="sampling-reasoning">
          {/* Folded, as in the chat: the server gets only the answer below, never this. */}
          <ThinkingBlock
            text={payload.result.reasoning.text}
            redacted={payload.result.reasoning.redacted === true}
            durationMs={payload.result.reasoning.durationMs}
          />
          <p className="fact-note">{t('pending.answer.reasoningNote')}</p>
        </div>
      ) : null}
      <section className="sampling-messages" aria-label={t('pending.answer.generated')}>
        <div className="field-label-row">
          <span className="field-label">{t('pending.answer.answer')}</span>
          {edited ? <Chip tone="warning">{t('pending.sampling.edited')}</Chip> : null}
          <div className="spacer" />
          {edited ? (
            <Button size="sm" variant="ghost" onClick={() => setContent(blocksOf(original))}>
              {t('pending.sampling.undo')}
            </Button>
          ) : null}
        </div>
        <div className="sampling-message role-assistant">
          {content.map((block, b) => (
            <SamplingBlockView
              key={b}
              block={block}
              label={content.length > 1 ? t('pending.answer.answerPart', { n: b + 1 }) : t('pending.answer.answer')}
              onText={(text) => setContent((current) => withAnswerText(current, b, text))}
            />
          ))}
        </div>
      </section>
      <div className="field">
        <label className="field-label" htmlFor={reasonId}>
          <T id="pending.sampling.reasonLabel" components={{ note: <span className="muted" /> }} />
        </label>
        <input
          id={reasonId}
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

/** The provider's own name for the model when it is not what the key says (an alias resolved, a router's pick). */
function answeredAs(t: Translate, key: string, answeredBy: string | undefined): string {
  if (answeredBy === undefined) return '';
  const asked = splitModelKey(key).model;
  return answeredBy === asked || answeredBy === key ? '' : t('pending.answer.reportedAs', { name: answeredBy });
}
