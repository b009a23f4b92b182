import { useState } from 'react';
import type { AppModelContext } from '../../../shared/domain/app-ui';
import { useBerth } from '../../store';
import { useLiveHostList } from '../../store/use-live-host-list';
import { Button, IconButton } from '../../ui/controls';
import { CloseIcon, SendIcon } from '../../ui/icons';
import { useAppsState, type MessageProposal } from './apps-state';
import { contextChipLabel, contextText, shownContexts } from './model-context';

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

/** Follows the host's record of what apps added (`apps.modelContext`, then `apps.modelContextChanged`). */
export function useModelContexts(conversationId: string): { contexts: AppModelContext[]; error: string | undefined } {
  const { value, error } = useLiveHostList(
    {
      method: 'apps.modelContext',
      input: { conversationId },
      topic: 'apps.modelContextChanged',
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
  const { contexts, error } = useModelContexts(conversationId);
  if (error !== undefined) {
    return (
      <p className="field-error composer-error" role="alert">
        Could not read what apps added to the model’s context: {error}
      </p>
    );
  }
  if (contexts.length === 0) return null;
  const remove = async (context: AppModelContext) => {
    const result = await transport.call('apps.setModelContext', {
      origin: { server: context.server, conversationId, toolUseId: context.toolUseId },
      content: [],
    });
    if (!result.ok) toastFailure('Could not remove what the app added', result);
  };
  return (
    <div className="app-context" role="group" aria-label="Added by apps to the next message">
      <span className="args-caption">Apps add to your next message</span>
      <ul className="composer-attachments">
        {contexts.map((context) => (
          <li key={context.toolUseId} className="composer-attachment" title={contextText(context)}>
            <span className="composer-attachment-kind">{context.server}</span>
            <span className="composer-attachment-label">{contextChipLabel(context)}</span>
            <IconButton
              size="sm"
              variant="ghost"
              label={`Remove what the app of ${context.server} added`}
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
  const [text, setText] = useState(proposal.text);
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (text.trim() === '' || running || sending) return;
    setSending(true);
    const result = await sendMessage(proposal.conversationId, text, model, []);
    setSending(false);
    if (result.ok) dropProposal(proposal.id);
    else setError(result.message);
  };
  return (
    <div className="app-proposal" role="group" aria-label={`Message proposed by the app of ${proposal.server}`}>
      <p className="app-proposal-head">
        The app of <strong>{proposal.server}</strong> ({proposal.tool}) proposes this message. Edit it and send it, or
        drop it.
      </p>
      <textarea
        className="input composer-input"
        aria-label="Proposed message"
        value={text}
        rows={Math.min(8, text.split('\n').length + 1)}
        onChange={(e) => setText(e.target.value)}
      />
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="edit-actions">
        {running ? <span className="field-hint">Wait for the reply to finish to send it.</span> : null}
        <div className="spacer" />
        <Button size="sm" variant="ghost" onClick={() => dropProposal(proposal.id)}>
          Drop
        </Button>
        <Button
          size="sm"
          variant="primary"
          icon={<SendIcon />}
          onClick={() => void send()}
          disabled={running || sending || text.trim() === ''}
        >
          Send
        </Button>
      </div>
    </div>
  );
}
