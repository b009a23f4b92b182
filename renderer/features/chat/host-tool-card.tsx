import clsx from 'clsx';
import { useId, useState } from 'react';
import type { ChatToolResultBlock, ChatToolUseBlock } from '../../../shared/domain/chat';
import { ChevronRightIcon } from '../../ui/icons';
import { McpContentView } from './content-blocks';
import { useT } from '../../i18n/use-t';

/**
 * A call Berth answered itself (a host tool: tool search, reading a capped result, loading a skill):
 * one compact line, "Berth searched tools for …", with what the model read under a disclosure. No
 * approval and no Stop of its own: a host tool touches nothing outside Berth and answers at once.
 * Loaded lazily from tool-call-card.tsx, off the first screen.
 */
export default function HostToolCard({
  use,
  result,
}: {
  use: ChatToolUseBlock;
  result: ChatToolResultBlock | undefined;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const id = useId();
  const line =
    result === undefined
      ? t('chat.host.answering', { tool: use.tool })
      : (result.hostSummary ?? t(result.isError ? 'chat.host.failed' : 'chat.host.answered', { tool: use.tool }));
  return (
    <div
      className={clsx('tool-call', 'host-tool-call', result?.isError === true && 'host-tool-call-error')}
      role="article"
      aria-label={t('chat.host.label', { tool: use.tool })}
      data-tool-use={use.id}
      tabIndex={-1}
    >
      <div className="host-tool-line">
        <span className="host-tool-who">Berth</span> <span>{line}</span>
      </div>
      {result !== undefined ? (
        <div className="tool-call-args">
          <button
            type="button"
            className={clsx('advanced-trigger', open && 'open')}
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen(!open)}
          >
            <ChevronRightIcon /> {t('chat.host.read')}
          </button>
          {open ? (
            <div id={id} className="host-tool-detail">
              <span className="args-caption">{t('chat.host.asked')}</span>
              <pre className="code-block">{JSON.stringify(use.input, null, 2)}</pre>
              <span className="args-caption">{t('chat.host.answer')}</span>
              {result.content.map((block, index) => (
                <McpContentView key={index} block={block} server={undefined} />
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
