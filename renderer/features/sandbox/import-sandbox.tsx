import { useId, useState } from 'react';
import { Switch } from '../../ui/switch';
import { WarningIcon } from '../../ui/icons';
import { unavailableSentence } from './sandbox-words';
import { useSandbox } from './use-sandbox';
import { useT } from '../../i18n/use-t';

/**
 * The import review's sandbox choice, for every local server it adds: on
 * where the platform has it (a foreign config is code the person did not
 * review in Berth), off with the reason where it does not.
 */
export function useImportSandbox(localCount: number) {
  const t = useT();
  const support = useSandbox((s) => s.support);
  const [touched, setTouched] = useState<boolean>();
  const id = useId();
  // On until the host says the machine cannot sandbox (an import pressed before its answer is refused in words there).
  const on = touched ?? support?.available ?? true;
  const unavailable = support !== undefined && !support.available;
  const section =
    localCount === 0 ? null : (
      <section className="import-section sandbox-import" aria-labelledby={`${id}-title`}>
        <h3 className="import-section-title" id={`${id}-title`}>
          {t('sandbox.fact.label')}
        </h3>
        <div className="switch-field">
          <Switch
            id={id}
            checked={on}
            disabled={support === undefined || (unavailable && !on)}
            label={t('sandbox.import.switch')}
            describedBy={`${id}-hint`}
            onCheckedChange={setTouched}
          />
          <label htmlFor={id}>
            <strong>{t('sandbox.import.switch')}</strong>
            <span className="field-hint" id={`${id}-hint`}>
              {t('sandbox.import.switchHint')}
            </span>
          </label>
        </div>
        {unavailable ? (
          <div className="inline-alert warn" role="note">
            <WarningIcon />
            <span>{unavailableSentence(support)}</span>
          </div>
        ) : null}
      </section>
    );
  return { section, sandbox: on && !unavailable };
}
