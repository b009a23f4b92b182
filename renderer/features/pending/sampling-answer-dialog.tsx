import { Collapsible } from 'radix-ui';
import { useId, useState } from 'react';
import { splitModelKey } from '../../../shared/domain/model-key';
import { Button, Chip } from '../../ui/controls';
import { ChevronRightIcon, SparkleIcon } from '../../ui/icons';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SamplingBlockView } from './sampling-blocks';
import { blocksOf, contentEdited, modelWithProvider, withAnswerText } from './sampling-model';
import { SafeName } from '../shell/safe-name';
import { ThinkingBlock } from '../chat/thinking-block';
import { SamplingFloodBar } from './sampling-flood';

/** Stage 2 of a sampling request: the model's answer, editable, before it goes back to the server. */
export function SamplingAnswerDialog({ request, answer, busy, error }: PendingDialogProps<'sampling-answer'>) {
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
      title="Review the answer before it is sent"
      error={error}
      footer={
        <>
          <Button variant="danger" onClick={reject} disabled={busy}>
            Reject
          </Button>
          <div className="spacer" />
          <Button variant="primary" onClick={approve} disabled={busy}>
            {edited ? 'Send edited answer' : 'Approve'}
          </Button>
        </>
      }
    >
      <SamplingFloodBar server={request.server} />
      <p className="muted">
        <strong className="text" data-testid="answered-by">
          {modelWithProvider(payload.model)}
        </strong>
        {answeredAs(payload.model.id, payload.answeredBy)} wrote this for{' '}
        <strong className="text">
          <SafeName name={request.server} />
        </strong>
        {payload.result.stopReason && payload.result.stopReason !== 'endTurn' ? (
          <> (it stopped early: {payload.result.stopReason})</>
        ) : null}
        . The server gets it only when you approve; edit it first if you like.
      </p>
      {payload.result.usage ? (
        <p className="muted" data-testid="answer-usage">
          It used {payload.result.usage.inputTokens.toLocaleString()} input +{' '}
          {payload.result.usage.outputTokens.toLocaleString()} output tokens
          {payload.result.usage.reasoningTokens !== undefined
            ? `, ${payload.result.usage.reasoningTokens.toLocaleString()} of them reasoning`
            : ''}{' '}
          (max {payload.request.maxTokens.toLocaleString()}), counted against this server’s session budget.
        </p>
      ) : null}
      {asked ? (
        <Collapsible.Root className="sampling-asked">
          <Collapsible.Trigger className="advanced-trigger">
            <ChevronRightIcon /> What was asked
          </Collapsible.Trigger>
          <Collapsible.Content className="sampling-asked-body">
            {blocksOf(asked.content).map((block, b) => (
              <SamplingBlockView key={b} block={block} label={`Request part ${b + 1}`} readOnly />
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
          <p className="fact-note">The model’s reasoning, for you only: the server gets just the answer.</p>
        </div>
      ) : null}
      <section className="sampling-messages" aria-label="Generated answer">
        <div className="field-label-row">
          <span className="field-label">Answer</span>
          {edited ? <Chip tone="warning">edited</Chip> : null}
          <div className="spacer" />
          {edited ? (
            <Button size="sm" variant="ghost" onClick={() => setContent(blocksOf(original))}>
              Undo changes
            </Button>
          ) : null}
        </div>
        <div className="sampling-message role-assistant">
          {content.map((block, b) => (
            <SamplingBlockView
              key={b}
              block={block}
              label={content.length > 1 ? `Answer, part ${b + 1}` : 'Answer'}
              onText={(text) => setContent((current) => withAnswerText(current, b, text))}
            />
          ))}
        </div>
      </section>
      <div className="field">
        <label className="field-label" htmlFor={reasonId}>
          Reason if you reject <span className="muted">(optional, sent to the server)</span>
        </label>
        <input
          id={reasonId}
          className="input"
          value={reason}
          maxLength={2000}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
    </PendingFrame>
  );
}

/** The provider's own name for the model when it is not what the key says (an alias resolved, a router's pick). */
function answeredAs(key: string, answeredBy: string | undefined): string {
  if (answeredBy === undefined) return '';
  const asked = splitModelKey(key).model;
  return answeredBy === asked || answeredBy === key ? '' : ` (reported as ${answeredBy})`;
}
