import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { Conversation } from '../../../shared/domain/chat';
import { conversationUsage } from '../../../shared/domain/chat-usage';
import { serverTools } from '../../../shared/domain/server-state-read';
import { useBerth } from '../../store';
import { Button, EmptyState, IconButton } from '../../ui/controls';
import { ChatIcon, KeyIcon, PlusIcon, SettingsIcon, WarningIcon } from '../../ui/icons';
import { Composer } from './composer';
import { ConversationList } from './conversation-list';
import { MessageList } from './message-list';
import { ToolsPopover } from './tools-popover';
import { usageSummary } from './usage-line';
import { missingKeyReason } from './model-readiness';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { HostMessageText } from '../../i18n/host-message';
import { words } from '../../i18n/words';
import { usePane } from '../shell/panes';

/** What apps in the conversation added or proposed (loaded only for a conversation with an app). */
const ComposerApps = lazy(() => import('../apps/composer-apps'));
/** "Loaded by the model: …" (tool search), only in a conversation where it is on. */
const LoadedToolsStrip = lazy(() => import('./loaded-tools-strip'));
// Shown once the host's estimate arrives anyway: on demand, out of the first screen's bundle.
const ContextMeter = lazy(async () => ({ default: (await import('./context-meter')).ContextMeter }));
// Opened from the header's settings button only.
const ConversationSettingsDialog = lazy(() => import('./conversation-settings-dialog'));

/** Starts a new conversation (it opens); a refusal is a toast. */
function useStartConversation(): { startNew: () => Promise<void>; creating: boolean } {
  const createConversation = useBerth((s) => s.createConversation);
  const toastFailure = useBerth((s) => s.toastFailure);
  const [creating, setCreating] = useState(false);
  async function startNew() {
    setCreating(true);
    const result = await createConversation();
    setCreating(false);
    if (!result.ok) toastFailure(words('chat.view.startFailed'), result);
  }
  return { startNew, creating };
}

/** The top bar's "New conversation" while the conversation list (and its New) is folded away. */
export function NewConversationButton() {
  const t = useT();
  const { startNew, creating } = useStartConversation();
  return (
    <IconButton
      label={t('chat.view.empty.new')}
      icon={<PlusIcon />}
      disabled={creating}
      onClick={() => void startNew()}
    />
  );
}

/** Chat with Claude and the tools of every ready server. */
export function ChatView() {
  const t = useT();
  const settings = useBerth((s) => s.settings);
  const conversationsLoaded = useBerth((s) => s.conversationsLoaded);
  const conversationCount = useBerth((s) => s.conversations.length);
  const activeId = useBerth((s) => s.activeConversationId);
  const conversation = useBerth((s) => (activeId ? s.conversationDetails[activeId] : undefined));
  const { startNew, creating } = useStartConversation();
  const list = usePane('conversations');
  // Nothing to chat with: no Anthropic key and no other provider ready (a local one needs no key).
  const noKey =
    settings !== undefined && settings.apiKey.source === 'none' && !settings.models.some((m) => m.ready === true);

  if (!settings || !conversationsLoaded) return <p className="view-loading">{t('chat.view.loading')}</p>;
  if (noKey && conversationCount === 0) {
    return (
      <div className="view-center">
        <NoKeyEmptyState />
      </div>
    );
  }
  return (
    <div className={list.collapsed ? 'chat-view list-collapsed' : 'chat-view'}>
      {list.collapsed ? null : <ConversationList onNew={() => void startNew()} creating={creating} />}
      {conversation ? (
        <ConversationPane key={conversation.id} conversation={conversation} />
      ) : activeId ? (
        <p className="view-loading">{t('chat.view.opening')}</p>
      ) : (
        <div className="view-center">
          <EmptyState
            icon={<ChatIcon />}
            title={t('chat.view.empty.title')}
            actions={
              <Button variant="primary" icon={<PlusIcon />} onClick={() => void startNew()} disabled={creating}>
                {t('chat.view.empty.new')}
              </Button>
            }
          >
            <p>{t('chat.view.empty.body')}</p>
          </EmptyState>
        </div>
      )}
    </div>
  );
}

function NoKeyEmptyState() {
  const t = useT();
  const showView = useBerth((s) => s.showView);
  return (
    <EmptyState
      icon={<KeyIcon />}
      title={t('chat.view.noKey.title')}
      actions={
        <Button variant="primary" icon={<KeyIcon />} onClick={() => showView('settings')}>
          {t('chat.view.openSettings')}
        </Button>
      }
    >
      <p>
        <T id="chat.view.noKey.body" components={{ strong: <strong /> }} />
      </p>
      <p>
        <T id="chat.view.noKey.env" values={{ name: 'ANTHROPIC_API_KEY' }} components={{ code: <code /> }} />
      </p>
    </EmptyState>
  );
}

function ConversationPane({ conversation }: { conversation: Conversation }) {
  const t = useT();
  const settings = useBerth((s) => s.settings);
  const live = useBerth((s) => s.liveTurns[conversation.id]);
  const summaryTitle = useBerth((s) => s.conversations.find((c) => c.id === conversation.id)?.title);
  const loadTools = useBerth((s) => s.loadConversationTools);
  const showView = useBerth((s) => s.showView);
  const setConversationModel = useBerth((s) => s.setConversationModel);
  // The conversation's own model: the picker saves a choice at once, so Retry and Continue use it too.
  const model = conversation.model;
  const setModel = useCallback(
    (next: string) => void setConversationModel(conversation.id, next),
    [conversation.id, setConversationModel],
  );
  const [toolsOpen, setToolsOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const total = useMemo(() => conversationUsage(conversation.messages), [conversation.messages]);
  const keyMissing = missingKeyReason(settings, model);
  const toolSearchShown = useBerth((s) => {
    const search = s.conversationTools[conversation.id]?.toolSearch;
    return search !== undefined && (search.active || (conversation.loadedTools?.length ?? 0) > 0);
  });
  const running = live?.running === true;
  const liveApp = useBerth((s) =>
    Object.values(s.liveTurns[conversation.id]?.toolCalls ?? {}).some((call) => call.app !== undefined),
  );
  const savedApp = useMemo(
    () => conversation.messages.some((m) => m.content.some((b) => b.type === 'tool_result' && b.app !== undefined)),
    [conversation.messages],
  );
  // Which servers are ready with how many tools: the tools count follows servers coming and going.
  const readyTools = useBerth((s) =>
    Object.values(s.servers)
      .filter((server) => server.status === 'ready')
      .map((server) => `${server.name}:${serverTools(server).length}`)
      .sort()
      .join('|'),
  );

  useEffect(() => {
    void loadTools(conversation.id);
  }, [conversation.id, loadTools, readyTools]);

  return (
    <section className="conversation-pane" aria-label={summaryTitle ?? conversation.title}>
      <header className="conversation-head">
        <h2 className="conversation-heading">{summaryTitle ?? conversation.title}</h2>
        <div className="spacer" />
        <Suspense fallback={null}>
          <ContextMeter conversationId={conversation.id} messageCount={conversation.messages.length} />
        </Suspense>
        {total !== undefined ? (
          <span className="conversation-usage" data-testid="conversation-usage" title={t('chat.view.usage.hint')}>
            {t('chat.view.usage.total', { summary: usageSummary(total, t) })}
          </span>
        ) : null}
        <ToolsPopover conversation={conversation} open={toolsOpen} onOpenChange={setToolsOpen} />
        <IconButton
          label={t('chat.params.open')}
          icon={<SettingsIcon />}
          className="conversation-settings-trigger"
          data-custom={hasOwnSettings(conversation) ? 'true' : undefined}
          onClick={() => setSettingsOpen(true)}
        />
        {settingsOpen ? (
          <Suspense fallback={null}>
            <ConversationSettingsDialog conversation={conversation} onClose={() => setSettingsOpen(false)} />
          </Suspense>
        ) : null}
      </header>
      {live?.toolCountWarning && running ? (
        <div className="banner banner-warning compact" role="note">
          <WarningIcon />
          <span className="banner-text">
            <HostMessageText message={live.toolCountWarningMessage} fallback={live.toolCountWarning} />
          </span>
          <Button size="sm" onClick={() => setToolsOpen(true)}>
            {t('chat.view.chooseTools')}
          </Button>
        </div>
      ) : null}
      {live?.notices?.map((notice) => (
        <div key={notice.message} className="banner banner-warning compact" role="note">
          <WarningIcon />
          <span className="banner-text">
            <HostMessageText message={notice.hostMessage} fallback={notice.message} />
          </span>
        </div>
      ))}
      {conversation.messages.length === 0 && !running ? (
        <div className="view-center">
          <EmptyState icon={<ChatIcon />} title={t('chat.view.start.title')}>
            <p>{t('chat.view.start.body')}</p>
          </EmptyState>
        </div>
      ) : (
        <MessageList conversation={conversation} live={live} />
      )}
      {keyMissing !== undefined ? (
        <div className="banner banner-warning compact" role="note" data-testid="no-key-banner">
          <WarningIcon />
          <span className="banner-text">{keyMissing.banner}</span>
          <Button size="sm" onClick={() => showView('settings')}>
            {t('chat.view.openSettings')}
          </Button>
        </div>
      ) : null}
      {toolSearchShown ? (
        <Suspense fallback={null}>
          <LoadedToolsStrip conversation={conversation} />
        </Suspense>
      ) : null}
      {liveApp || savedApp ? (
        <Suspense fallback={null}>
          <ComposerApps conversationId={conversation.id} model={model} running={running} />
        </Suspense>
      ) : null}
      <Composer
        conversationId={conversation.id}
        model={model}
        onModelChange={setModel}
        running={running}
        disabledReason={keyMissing?.reason}
      />
    </section>
  );
}

/** The conversation has a system prompt or parameters of its own: the settings button shows a dot. */
function hasOwnSettings(conversation: Conversation): boolean {
  return (
    conversation.systemPrompt !== undefined ||
    conversation.temperature !== undefined ||
    conversation.maxTokens !== undefined
  );
}
