import { Button } from '../../ui/controls';
import { useT } from '../../i18n/use-t';

// What the Overview's limit forms (sampling limits, result limit) share: how a
// typed number is read, and the row of buttons under the fields.

/** A whole number from a text field ("12,000" and "12 000" too), or NaN for anything else, so the check says what is wrong. */
export function tokensOf(text: string): number {
  const cleaned = text.trim().replace(/[\s,_]/gu, '');
  return cleaned === '' ? Number.NaN : Number(cleaned);
}

/** Save (submits the form), Cancel, and, when the server has its own value, the button back to Berth's default. */
export function LimitFormActions({
  busy,
  saveLabel,
  onCancel,
  reset,
}: {
  busy: boolean;
  saveLabel: string;
  onCancel: () => void;
  reset?: { label: string; run: () => void } | undefined;
}) {
  const t = useT();
  return (
    <div className="fact-actions">
      <Button type="submit" size="sm" variant="primary" disabled={busy}>
        {saveLabel}
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel} disabled={busy}>
        {t('servers.limits.cancel')}
      </Button>
      {reset !== undefined ? (
        <Button size="sm" variant="ghost" disabled={busy} onClick={reset.run}>
          {reset.label}
        </Button>
      ) : null}
    </div>
  );
}
