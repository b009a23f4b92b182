import { useId, useState } from 'react';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

/** The registries Discover searches, one address a line; the first is the default. */
export function RegistriesEditor({
  registries,
  onSaved,
  onCancel,
}: {
  registries: string[];
  onSaved: (next: string[]) => void;
  onCancel: () => void;
}) {
  const transport = useBerth((s) => s.appsTransport);
  const [text, setText] = useState(registries.join('\n'));
  const [error, setError] = useState<Failure>();
  const id = useId();
  const t = useT();
  async function save() {
    const list = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const result = await transport.call('registry.setSources', { registries: list });
    if (!result.ok) return setError(result);
    onSaved(result.value.registries);
  }
  return (
    <form
      className="discover-registries"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id} className="field-label">
        {t('discover.registries.label')}
      </label>
      <textarea
        id={id}
        className="input mono"
        rows={3}
        value={text}
        spellCheck={false}
        aria-invalid={error !== undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onChange={(event) => setText(event.target.value)}
      />
      {error !== undefined ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {failureText(error)}
        </p>
      ) : (
        <p className="field-hint" id={`${id}-hint`}>
          {t('discover.registries.hint')}
        </p>
      )}
      <div className="discover-registries-actions">
        <Button variant="ghost" type="button" onClick={onCancel}>
          {t('discover.registries.cancel')}
        </Button>
        <Button variant="primary" type="submit">
          {t('discover.registries.save')}
        </Button>
      </div>
    </form>
  );
}
