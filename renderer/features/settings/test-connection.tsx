import { useState } from 'react';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';
import type { MethodOutput } from '../../../shared/contract';

/** "Test connection" and, once run, the provider's answer in exact words. */
export function TestConnection({
  providerId,
  providerLabel,
  model,
}: {
  providerId: string;
  providerLabel: string;
  model?: string;
}) {
  const t = useT();
  const checkProvider = useBerth((s) => s.checkProvider);
  const [result, setResult] = useState<MethodOutput<'providers.check'> | Failure>();
  const [busy, setBusy] = useState(false);

  async function test() {
    setBusy(true);
    setResult(undefined);
    const answer = await checkProvider(providerId, model);
    setBusy(false);
    // A refused call keeps its code, so a language switch words it again.
    setResult(answer.ok ? answer.value : answer);
  }

  return (
    <>
      <Button
        size="sm"
        onClick={() => void test()}
        disabled={busy}
        aria-label={t('settings.providers.test.label', { provider: providerLabel })}
      >
        {t(busy ? 'settings.providers.test.testing' : 'settings.providers.test.button')}
      </Button>
      <span
        role="status"
        className={result === undefined ? 'sr-only' : result.ok ? 'test-result test-ok' : 'test-result test-failed'}
      >
        {result === undefined
          ? ''
          : t(result.ok ? 'settings.providers.test.passed' : 'settings.providers.test.failed', {
              message: failureText(result),
            })}
      </span>
    </>
  );
}
