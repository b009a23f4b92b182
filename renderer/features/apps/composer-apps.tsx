import { useState } from 'react';
import type { AppModelContext } from '../../../shared/domain/app-ui';
import { useBerth } from '../../store';
import { useLiveHostList } from '../../store/use-live-host-list';
import { Button, IconButton } from '../../ui/controls';
import { CloseIcon, SendIcon } from '../../ui/icons';
import { useAppsState, type MessageProposal } from './apps-state';
import { contextChipLabel, contextText, shownContexts } from './model-context';
import { T } from '../../i18n/t';
import { failureText } from '../../i18n/host-message';
import { useT } from '../../i18n/use-t';
import { words } from '../../i18n/words';
import type { Failure } from '../../../shared/result';

/**
 * Above the composer, for a conversation with apps: what they added to the
 * model's context (each removable) and the messages they proposed (edited and
 * sent by the person, or dropped; never sent by themselves). Loaded on demand.
 */
export default function ComposerApps({
  conversationId,
  model,
  running,
}: {
  conversationId: string;
  model: string;
  running: boolean;
}) {
  const proposals = useAppsState((s) => s.proposals).filter((p) => p.conversationId === conversationId);
  return (
    <>
      <ModelContextChips conversationId={conversationId} />
      {proposals.map((proposal) => (
        <ProposalEditor key={proposal.id} proposal={proposal} model={model} running={running} />
      ))}
    </>
  );
}

// The bridge's method and topic (wire names, not words).
const MODEL_CONTEXT_METHOD = 'apps.modelContext';
const MODEL_CONTEXT_TOPIC = 'apps.modelContextChanged';

/** Follows the host's record of what apps added (`apps.modelContext`, then `apps.modelContextChanged`). */
export function useModelContexts(conversationId: string): { contexts: AppModelContext[]; error: string | undefined } {
  const { value, error } = useLiveHostList(
    {
      method: MODEL_CONTEXT_METHOD,
      input: { conversationId },
      topic: MODEL_CONTEXT_TOPIC,
      fromAnswer: (contexts) => contexts,
      fromEvent: (payload) => (payload.conversationId === conversationId ? { value: payload.contexts } : undefined),
    },
    [conversationId],
  );
  return { contexts: shownContexts(value ?? [], conversationId), error };
}

function ModelContextChips({ conversationId }: { conversationId: string }) {
  const transport = useBerth((s) => s.appsTransport);
  const toastFailure = useBerth((s) => s.toastFailure);
  const t = useT();
  const { contexts, error } = useModelContexts(conversationId);
  if (error !== undefined) {
    return (
      <p className="field-error composer-error" role="alert">
        {t('apps.context.readFailed', { error })}
      </p>
    );
  }
  if (contexts.length === 0) return null;
  const remove = async (context: AppModelContext) => {
    const result = await transport.call('apps.setModelContext', {
      origin: { server: context.server, conversationId, toolUseId: context.toolUseId },
      content: [],
    });
    if (!result.ok) toastFailure(words('apps.context.removeFailed'), result);
  };
  return (
    <div className="app-context" role="group" aria-label={t('apps.context.label')}>
      <span className="args-caption">{t('apps.context.caption')}</span>
      <ul className="composer-attachments">
        {contexts.map((context) => (
          <li key={context.toolUseId} className="composer-attachment" title={contextText(context)}>
            <span className="composer-attachment-kind">{context.server}</span>
            <span className="composer-attachment-label">{contextChipLabel(context)}</span>
            <IconButton
              size="sm"
              variant="ghost"
              label={t('apps.context.remove', { server: context.server })}
              icon={<CloseIcon />}
              onClick={() => void remove(context)}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProposalEditor({ proposal, model, running }: { proposal: MessageProposal; model: string; running: boolean }) {
  const sendMessage = useBerth((s) => s.sendMessage);
  const dropProposal = useAppsState((s) => s.dropProposal);
  const t = useT();
  const [text, setText] = useState(proposal.text);
  const [error, setError] = useState<Failure>();
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (text.trim() === '' || running || sending) return;
    setSending(true);
    const result = await sendMessage(proposal.conversationId, text, model, []);
    setSending(false);
    if (result.ok) dropProposal(proposal.id);
    else setError(result);
  };
  return (
    <div className="app-proposal" role="group" aria-label={t('apps.proposal.label', { server: proposal.server })}>
      <p className="app-proposal-head">
        <T
          id="apps.proposal.head"
          values={{ server: proposal.server, tool: proposal.tool }}
          components={{ strong: <strong /> }}
        />
      </p>
      <textarea
        className="input composer-input"
        aria-label={t('apps.proposal.input')}
        value={text}
        rows={Math.min(8, text.split('\n').length + 1)}
        onChange={(e) => setText(e.target.value)}
      />
      {error ? (
        <p className="field-error" role="alert">
          {failureText(error)}
        </p>
      ) : null}
      <div className="edit-actions">
        {running ? <span className="field-hint">{t('apps.proposal.wait')}</span> : null}
        <div className="spacer" />
        <Button size="sm" variant="ghost" onClick={() => dropProposal(proposal.id)}>
          {t('apps.proposal.drop')}
        </Button>
        <Button
          size="sm"
          variant="primary"
          icon={<SendIcon />}
          onClick={() => void send()}
          disabled={running || sending || text.trim() === ''}
        >
          {t('apps.proposal.send')}
        </Button>
      </div>
    </div>
  );
}
