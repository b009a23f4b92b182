import { DropdownMenu } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import type { ModelChoice } from '../../../shared/domain/pending';
import { useBerth } from '../../store';
import { Button } from '../shell/controls';
import { ChevronDownIcon, SendIcon, StopIcon } from '../shell/icons';

/** Enter sends, Shift+Enter adds a line; while a reply runs, Stop replaces Send. */
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
  const sendMessage = useBerth((s) => s.sendMessage);
  const stopTurn = useBerth((s) => s.stopTurn);
  const models = useBerth((s) => s.settings?.models ?? []);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    input.current?.focus();
    setError(undefined);
  }, [conversationId]);

  async function send() {
    const message = text.trim();
    if (message === '' || running || sending || disabledReason) return;
    setSending(true);
    const result = await sendMessage(conversationId, text, model);
    setSending(false);
    if (result.ok) {
      setText('');
      setError(undefined);
    } else {
      // The text stays in the box so nothing the person wrote is lost.
      setError(result.message);
    }
  }

  const lines = text.split('\n').length;
  return (
    <div className="composer">
      {error ? (
        <p className="field-error composer-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="composer-box">
        <textarea
          ref={input}
          className="composer-input"
          aria-label="Message"
          placeholder={disabledReason ?? 'Message Claude…  (Enter to send, Shift+Enter for a new line)'}
          value={text}
          rows={Math.min(10, Math.max(2, lines))}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <div className="composer-bar">
          <ModelPicker models={models} value={model} onChange={onModelChange} />
          <div className="spacer" />
          {running ? (
            <Button variant="secondary" icon={<StopIcon />} onClick={() => void stopTurn(conversationId)}>
              Stop
            </Button>
          ) : (
            <Button variant="primary" icon={<SendIcon />} onClick={() => void send()} disabled={text.trim() === '' || sending || Boolean(disabledReason)}>
              Send
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

function ModelPicker({ models, value, onChange }: { models: ModelChoice[]; value: string; onChange: (model: string) => void }) {
  const current = models.find((m) => m.id === value);
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button size="sm" variant="ghost" aria-label={`Model: ${current?.label ?? value}`} className="model-picker">
          {current?.label ?? value} <ChevronDownIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" side="top" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">Model for the next reply</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={value} onValueChange={onChange}>
            {(current ? models : [{ id: value, label: value }, ...models]).map((m) => (
              <DropdownMenu.RadioItem key={m.id} value={m.id} className="menu-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                {m.label}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
