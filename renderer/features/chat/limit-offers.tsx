import { MAX_MESSAGE_CHARS } from '../../../shared/domain/attachment-limits';
import { Button } from '../../ui/controls';

// The composer's offers past the message limit and after a long paste, loaded only when one shows.

const count = (n: number) => n.toLocaleString('en-US');

/** Past the limit: what is wrong, what to do, and a button that does it. */
export function OverLimitNotice({ text, onAttachText }: { text: string; onAttachText: () => void }) {
  const over = text.length - MAX_MESSAGE_CHARS;
  return (
    <div className="composer-offer" role="status">
      <span>
        {count(over)} {over === 1 ? 'character' : 'characters'} too many to send (a message holds{' '}
        {count(MAX_MESSAGE_CHARS)}). Shorten the message, or attach the text as a file.
      </span>
      <Button size="sm" variant="primary" onClick={onAttachText}>
        Attach the text as a file
      </Button>
    </div>
  );
}

/** After a paste: held back (it would not fit) or let in (it is long), with the offer to attach it as a file instead. */
export function PasteOfferPanel({
  blocked,
  pastedChars,
  onAttach,
  onDismiss,
}: {
  blocked: boolean;
  pastedChars: number;
  onAttach: () => void;
  onDismiss: () => void;
}) {
  return (
    <div className="composer-offer" role="alert">
      <span>
        {blocked
          ? `The pasted text has ${count(pastedChars)} characters, more than a message holds (${count(MAX_MESSAGE_CHARS)}). Attach it as a text file instead?`
          : `You pasted ${count(pastedChars)} characters. Long text reads better for the model as an attached file.`}
      </span>
      <Button size="sm" variant="primary" onClick={onAttach}>
        Attach as a text file
      </Button>
      <Button size="sm" variant="ghost" onClick={onDismiss}>
        {blocked ? 'Cancel' : 'Keep it in the message'}
      </Button>
    </div>
  );
}
