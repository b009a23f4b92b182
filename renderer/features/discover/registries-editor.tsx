import { useId, useState } from 'react';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';

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
  const [error, setError] = useState<string>();
  const id = useId();
  async function save() {
    const list = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const result = await transport.call('registry.setSources', { registries: list });
    if (!result.ok) return setError(result.message);
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
        Registries (one address a line; the first is searched first)
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
          {error}
        </p>
      ) : (
        <p className="field-hint" id={`${id}-hint`}>
          Organizations can run their own registry with the same API. Whoever runs a registry decides what it lists:
          Berth always shows you what an entry would run before it does.
        </p>
      )}
      <div className="discover-registries-actions">
        <Button variant="ghost" type="button" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="primary" type="submit">
          Save
        </Button>
      </div>
    </form>
  );
}
