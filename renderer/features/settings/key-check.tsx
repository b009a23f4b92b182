import { useRef, useState, type ReactNode } from 'react';
import type { KeyCheck } from '../../../shared/contract/providers';
import type { Failure } from '../../../shared/result';
import { useBerth } from '../../store';
import { useT } from '../../i18n/use-t';
import { failureText, hostText } from '../../i18n/host-message';

type Checked = { state: 'checking' } | KeyCheck | Failure;

/**
 * The check of a key just saved (providers.checkKey): "Checking…", then "Key works", the provider's refusal, or
 * saved but unchecked with the reason. `check` starts it; `line` is what to show under the key's box.
 */
export function useKeyCheck(): { check: (id: string) => Promise<void>; line: ReactNode } {
  const t = useT();
  const checkProviderKey = useBerth((s) => s.checkProviderKey);
  const [checked, setChecked] = useState<Checked>();
  // A second save while the first check runs: only the last check's answer is shown.
  const latest = useRef(0);

  async function check(id: string): Promise<void> {
    const run = ++latest.current;
    setChecked({ state: 'checking' });
    const answer = await checkProviderKey(id);
    if (run === latest.current) setChecked(answer.ok ? answer.value : answer);
  }

  const line =
    checked === undefined ? null : (
      <p role="status" className={`key-check test-result ${toneOf(checked)}`}>
        {wording(checked, t)}
      </p>
    );
  return { check, line };
}

function toneOf(checked: Checked): string {
  if ('state' in checked) return '';
  if ('result' in checked) return checked.result === 'works' ? 'test-ok' : 'test-failed';
  return 'test-failed';
}

function wording(checked: Checked, t: ReturnType<typeof useT>): string {
  if ('state' in checked) return t('settings.keyCheck.checking');
  if (!('result' in checked)) return t('settings.keyCheck.unchecked', { reason: failureText(checked) });
  switch (checked.result) {
    case 'works':
      return t('settings.keyCheck.works');
    case 'refused':
      return t('settings.keyCheck.refused', {
        provider: checked.provider,
        status: checked.status,
        detail: checked.detail,
      });
    case 'unchecked':
      return t('settings.keyCheck.unchecked', { reason: hostText(checked.reasonMessage, checked.reason) });
  }
}
