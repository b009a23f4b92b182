import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { ChatAttachment } from '../../../shared/domain/chat';
import type { ModelOption } from '../../../shared/domain/providers';
import { declaresSkillsExtension } from '../../../shared/domain/skills-extension';
import { composerDraft, useBerth } from '../../store';
import { Button, IconButton } from '../../ui/controls';
import { BookIcon, CloseIcon, SendIcon, StopIcon } from '../../ui/icons';
import { CharacterCounter, isOverLimit, OverLimitNotice, usePasteOffer } from './message-limits';
import { useFileDrop } from './use-file-drop';
import { useMentions } from './use-mentions';
import { useSlashCommands } from './slash-commands';
import { ModelButton } from './model-button';
import type { Translate } from '../../i18n/use-t';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

// The skill menu (and the catalog it reads) loads with its first opening: the composer is on the first screen.
// Only for models that reason, and after the defaults load: on demand, out of the first screen's bundle.
// The model menu (Radix's menu and its focus handling) loads on demand; until then the same button shows the model.
const ModelPicker = lazy(() => import('./model-picker'));
const ReasoningControl = lazy(async () => ({ default: (await import('./reasoning-control')).ReasoningControl }));
const SkillPicker = lazy(async () => ({ default: (await import('../skills/skill-picker')).SkillPicker }));

/**
 * Enter sends, Shift+Enter adds a line; while a reply runs, Stop replaces Send.
 * `/` lists prompts, `@` lists resources to attach, and files dropped on the
 * box are attached; limits show before they bite (counter, long-paste offer).
 */
export function Composer({
  conversationId,
  model,
  onModelChange,
  running,
  disabledReason,
}: {
  conversationId: string;
  model: string;
  onModelChange: (model: string) => void;
  running: boolean;
  /** Set when sending cannot work (no API key); the box stays usable for drafting. */
  disabledReason?: string;
}) {
  const t = useT();
  const sendMessage = useBerth((s) => s.sendMessage);
  const stopTurn = useBerth((s) => s.stopTurn);
  const models = useBerth((s) => s.settings?.models ?? []);
  // The draft lives in the store so prompts and the resource browser can add to it.
  const { text, attachments } = useBerth((s) => composerDraft(s.composerDrafts, conversationId));
  const setComposerText = useBerth((s) => s.setComposerText);
  const clearComposer = useBerth((s) => s.clearComposer);
  const removeAttachment = useBerth((s) => s.removeComposerAttachment);
  const attachToComposer = useBerth((s) => s.attachToComposer);
  const attach = (list: ChatAttachment[]) => attachToComposer(conversationId, list);
  const setText = (value: string) => setComposerText(conversationId, value);
  const [error, setError] = useState<Failure>();
  const [sending, setSending] = useState(false);
  const [skillsOpen, setSkillsOpen] = useState(false);
  // The Skills button shows only while a ready server declares the skills extension (as its Prompts and resources
  // menus only list ready servers); one string, so other server changes do not redraw the composer.
  const skillServers = useBerth((s) =>
    Object.values(s.servers)
      .filter((server) => server.status === 'ready' && declaresSkillsExtension(server.capabilities))
      .map((server) => server.name)
      .sort()
      .join('\n'),
  );
  const input = useRef<HTMLTextAreaElement>(null);
  // `/` at the start of the box lists the prompts of ready servers.
  const slash = useSlashCommands(conversationId, text, input);
  // `@` anywhere (after a space) lists the resources of ready servers; never while the `/` menu is up.
  const mentions = useMentions(conversationId, text, input, slash.panel !== null);
  const drop = useFileDrop({ conversationId, attachments, attach });
  const paste = usePasteOffer({
    conversationId,
    text,
    setText,
    attach,
    refuse: (reason) => drop.showRefusal(t('chat.composer.pastedText'), reason),
  });

  useEffect(() => {
    input.current?.focus();
    setError(undefined);
  }, [conversationId]);

  const hasContent = text.trim() !== '' || attachments.length > 0;
  const tooLong = isOverLimit(text);

  const attachTextAsFile = async () => {
    const { textAttachment } = await import('./dropped-files');
    const made = textAttachment(text, t('chat.composer.messageText'));
    if (!made.ok) {
      drop.showRefusal(t('chat.composer.messageText'), made.reason);
      return;
    }
    attach([made.attachment]);
    setText('');
  };

  async function send() {
    if (!hasContent || tooLong || running || sending || disabledReason) return;
    setSending(true);
    const result = await sendMessage(conversationId, text, model, attachments);
    setSending(false);
    if (result.ok) {
      clearComposer(conversationId);
      drop.clearRefusals();
      setError(undefined);
    } else {
      // The text stays in the box so nothing the person wrote is lost.
      setError(result);
    }
  }

  const lines = text.split('\n').length;
  return (
    <div
      className={drop.dragging ? 'composer composer-dragging' : 'composer'}
      role="group"
      aria-label={t('chat.composer.group')}
      {...drop.dropProps}
    >
      {error ? (
        <p className="field-error composer-error" role="alert">
          {failureText(error)}
        </p>
      ) : null}
      {slash.panel}
      {mentions.panel}
      {skillsOpen && skillServers !== '' ? (
        <Suspense fallback={null}>
          <SkillPicker
            conversationId={conversationId}
            skillServers={skillServers.split('\n')}
            onAttach={(attachment) => attach([attachment])}
            onClose={() => setSkillsOpen(false)}
          />
        </Suspense>
      ) : null}
      {drop.panel}
      {paste.panel}
      <OverLimitNotice text={text} onAttachText={() => void attachTextAsFile()} />
      <div className="composer-box">
        {drop.dragging ? (
          <div className="composer-drop-hint" aria-hidden="true">
            {t('chat.composer.dropHint')}
          </div>
        ) : null}
        {attachments.length > 0 ? (
          <AttachmentChips attachments={attachments} onRemove={(index) => removeAttachment(conversationId, index)} />
        ) : null}
        <textarea
          ref={input}
          className="composer-input"
          aria-label={t('chat.composer.input')}
          placeholder={disabledReason ?? t('chat.composer.placeholder', { name: addressee(models, model, t) })}
          {...slash.inputProps}
          {...mentions.inputProps}
          value={text}
          rows={Math.min(10, Math.max(2, lines))}
          onChange={(e) => {
            setText(e.target.value);
            mentions.trackCaret(e.target);
          }}
          onSelect={(e) => mentions.trackCaret(e.currentTarget)}
          onPaste={paste.onPaste}
          onKeyDown={(e) => {
            if (slash.handleKeyDown(e)) return;
            if (mentions.handleKeyDown(e)) return;
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <div className="composer-bar">
          <Suspense fallback={<ModelButton models={models} value={model} disabled />}>
            <ModelPicker models={models} value={model} onChange={onModelChange} />
          </Suspense>
          <Suspense fallback={null}>
            <ReasoningControl conversationId={conversationId} model={models.find((m) => m.id === model)} />
          </Suspense>
          {skillServers !== '' ? (
            <Button
              size="sm"
              variant="ghost"
              icon={<BookIcon />}
              className="composer-skills"
              aria-expanded={skillsOpen}
              onClick={() => setSkillsOpen((open) => !open)}
            >
              {t('chat.composer.skills')}
            </Button>
          ) : null}
          <div className="spacer" />
          <CharacterCounter text={text} />
          {running ? (
            <Button variant="secondary" icon={<StopIcon />} onClick={() => void stopTurn(conversationId)}>
              {t('chat.composer.stop')}
            </Button>
          ) : (
            <Button
              variant="primary"
              icon={<SendIcon />}
              onClick={() => void send()}
              disabled={!hasContent || tooLong || sending || Boolean(disabledReason)}
            >
              {t('chat.composer.send')}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

/** What will be sent along with the text; each chip can be taken off again. */
function AttachmentChips({
  attachments,
  onRemove,
}: {
  attachments: ChatAttachment[];
  onRemove: (index: number) => void;
}) {
  const t = useT();
  return (
    <ul className="composer-attachments" aria-label={t('chat.composer.attachments')}>
      {attachments.map((attachment, index) => (
        <li key={`${index}-${attachment.label}`} className="composer-attachment" title={attachmentTitle(attachment)}>
          <span className="composer-attachment-kind">{attachmentKind(attachment, t)}</span>
          <span className="composer-attachment-label">{attachment.label}</span>
          {attachment.server ? <span className="muted">· {attachment.server}</span> : null}
          <IconButton
            size="sm"
            variant="ghost"
            label={t('chat.composer.removeAttachment', { label: attachment.label })}
            icon={<CloseIcon />}
            onClick={() => onRemove(index)}
          />
        </li>
      ))}
    </ul>
  );
}

function attachmentKind(attachment: ChatAttachment, t: Translate): string {
  const { content } = attachment;
  if (content.type === 'image') return t('chat.composer.kind.image');
  if (content.type === 'audio') return t('chat.composer.kind.audio');
  return t('text' in content.resource ? 'chat.composer.kind.text' : 'chat.composer.kind.file');
}

/** Who the message box talks to: Claude, or another provider's model by its name. */
function addressee(models: readonly ModelOption[], model: string, t: Translate): string {
  const current = models.find((m) => m.id === model);
  return current === undefined || current.provider === undefined || current.provider === 'anthropic'
    ? t('chat.composer.claude')
    : current.label;
}

function attachmentTitle(attachment: ChatAttachment): string {
  const { content } = attachment;
  if (content.type === 'resource')
    return `${content.resource.uri}${content.resource.mimeType ? ` (${content.resource.mimeType})` : ''}`;
  return content.mimeType;
}
