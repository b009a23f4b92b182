import { useId, useState, type ReactNode } from 'react';
import type { ImportWarning } from '../../../shared/contract/config-import';
import { WarningIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';

/** The keys of the warnings that need their own yes (`confirm: true`), in order. */
export function riskKeys(warnings: readonly ImportWarning[]): string[] {
  return warnings.flatMap((warning) => (warning.confirm === true && warning.key !== undefined ? [warning.key] : []));
}

/** A key as people read it: `NODE_OPTIONS`, `--privileged`, `169.254.169.254`. */
function shownKey(key: string): string {
  return key.replace(/^(docker|address):/, '');
}

/**
 * The one checkbox that confirms every flagged item of a review by name
 * (variables that run code, docker options that open the container, inward
 * addresses). The host refuses the install or import without it; this only
 * asks for it where the person reads the review.
 */
export function RiskConfirm({
  keys,
  checked,
  onChange,
  disabled = false,
}: {
  keys: readonly string[];
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const t = useT();
  const id = useId();
  if (keys.length === 0) return null;
  return (
    <div className="inline-alert warn risk-confirm" role="group" aria-labelledby={`${id}-label`}>
      <WarningIcon />
      <label id={`${id}-label`}>
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
        />{' '}
        {t('launch-review.riskConfirm', { keys: keys.map(shownKey).join(', '), count: keys.length })}
      </label>
    </div>
  );
}

export interface RiskConfirmation {
  /** Nothing flagged, or the person confirmed exactly what is flagged now. */
  confirmed: boolean;
  /** What to send as `confirmed`. */
  keys: string[];
  section: ReactNode;
}

/**
 * The confirmation for a review that may change under it (a bundle's review
 * follows its settings): a yes covers the flagged items it was given for,
 * and a review that flags something else asks again.
 */
export function useRiskConfirmation(
  warnings: readonly ImportWarning[] | undefined,
  disabled = false,
): RiskConfirmation {
  const keys = riskKeys(warnings ?? []);
  const current = keys.join('\n');
  const [agreed, setAgreed] = useState<string>();
  const confirmed = keys.length === 0 || agreed === current;
  return {
    confirmed,
    keys: confirmed ? keys : [],
    section: (
      <RiskConfirm
        keys={keys}
        checked={agreed === current}
        disabled={disabled}
        onChange={(checked) => setAgreed(checked ? current : undefined)}
      />
    ),
  };
}
