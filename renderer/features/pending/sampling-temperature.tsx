/** What the person typed as the temperature: a number to send, null for the model's default, or why it cannot be sent. */
export function checkTemperature(text: string): { value: number | null } | { error: string } {
  const cleaned = text.trim().replace(',', '.');
  if (cleaned === '') return { value: null };
  const value = Number(cleaned);
  if (!Number.isFinite(value) || value < 0 || value > 2)
    return { error: 'Enter a number from 0 to 2, or leave it empty for the model’s default.' };
  return { value };
}

/** The temperature row of the review's facts, editable; empty means the model's default. */
export function SamplingTemperatureFact({
  id,
  requested,
  text,
  error,
  onText,
}: {
  id: string;
  requested: number | undefined;
  text: string;
  error: string | undefined;
  onText: (text: string) => void;
}) {
  return (
    <>
      <dt>
        <label htmlFor={id}>Temperature</label>
      </dt>
      <dd>
        <input
          id={id}
          className="input tokens-input"
          inputMode="decimal"
          value={text}
          placeholder="model default"
          aria-invalid={error !== undefined}
          aria-describedby={`${id}-note`}
          onChange={(e) => onText(e.target.value)}
        />
        {error !== undefined ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <p className="fact-note" id={`${id}-note`}>
          {requested === undefined ? 'The server set none.' : `The server asked for ${requested}.`} Lower is more
          predictable; Claude takes 0 to 1, most other models 0 to 2.
        </p>
      </dd>
    </>
  );
}
