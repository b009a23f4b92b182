import clsx from 'clsx';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { comboboxOptionId } from '../../ui/use-combobox-menu';
import { T } from '../../i18n/t';
import { HostMessageText } from '../../i18n/host-message';
import type { HostMessage } from '../../../shared/domain/host-message';

/**
 * The menu the message box opens for `/` (prompts) and `@` (resources): the
 * matches as a listbox tied to the message box, which keeps focus (↑↓ move,
 * Enter or Tab pick, Esc closes); when nothing matches, why and what to do;
 * then the servers whose list could not be read.
 */
export function PickerMenu<T>({
  listboxId,
  title,
  pickVerb,
  matches,
  itemKey,
  renderItem,
  highlighted,
  onHighlight,
  onChoose,
  emptyMessage,
  problems,
  problemsLabel,
}: {
  listboxId: string;
  /** The kind of thing listed ("Prompts"), the heading and the listbox's name. */
  title: string;
  /** What Enter does ("choose"), in the key hint. */
  pickVerb: string;
  matches: T[];
  itemKey: (item: T) => string;
  /** The option's content (its name, title and server, then its description). */
  renderItem: (item: T) => ReactNode;
  highlighted: number;
  onHighlight: (index: number) => void;
  onChoose: (item: T) => void;
  emptyMessage: string;
  problems: ReadonlyArray<{ server: string; message: string; hostMessage?: HostMessage | undefined }>;
  problemsLabel: string;
}) {
  const list = useRef<HTMLUListElement>(null);
  const titleId = useId();
  useEffect(() => {
    list.current?.children[highlighted]?.scrollIntoView({ block: 'nearest' });
  }, [highlighted]);

  return (
    <div className="slash-panel" role="group" aria-labelledby={titleId}>
      <div className="slash-head">
        <span className="slash-title" id={titleId}>
          {title}
        </span>
        <span className="slash-keys" aria-hidden="true">
          <T id="chat.picker.keys" values={{ verb: pickVerb }} components={{ kbd: <kbd /> }} />
        </span>
      </div>
      {matches.length > 0 ? (
        <ul ref={list} id={listboxId} role="listbox" aria-label={title} className="slash-list">
          {matches.map((item, index) => (
            <li
              key={itemKey(item)}
              id={comboboxOptionId(listboxId, index)}
              role="option"
              aria-selected={index === highlighted}
              className={clsx('slash-option', index === highlighted && 'slash-option-active')}
              // mousedown, not click: the message box must keep focus.
              onMouseDown={(e) => {
                e.preventDefault();
                onChoose(item);
              }}
              onMouseMove={() => {
                if (index !== highlighted) onHighlight(index);
              }}
            >
              {renderItem(item)}
            </li>
          ))}
        </ul>
      ) : (
        <p id={listboxId} className="slash-empty" role="status">
          {emptyMessage}
        </p>
      )}
      {problems.length > 0 ? (
        <ul className="slash-problems" aria-label={problemsLabel}>
          {problems.map((problem) => (
            <li key={problem.server} className="field-error">
              {problem.server}: <HostMessageText message={problem.hostMessage} fallback={problem.message} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
