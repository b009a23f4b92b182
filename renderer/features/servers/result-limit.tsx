import { useId, useState } from 'react';
import {
  DEFAULT_RESULT_LIMIT_TOKENS,
  MAX_RESULT_LIMIT_TOKENS,
  MIN_RESULT_LIMIT_TOKENS,
} from '../../../shared/domain/result-limits';
import { useBerth } from '../../store';
import { useLiveHostList } from '../../store/use-live-host-list';
import { Button, Field, InlineAlert } from '../../ui/controls';
import { LimitFormActions, tokensOf } from './limit-form';

// The Overview's "Long results": how much of one of the server's tool results
// reaches the model. Kept in this (lazy) view with its own state rather than a
// store slice: only this section reads it, and the first screen stays as it is.

const n = (value: number): string => value.toLocaleString('en-US');

/** Berth's default, said the way the host applies it (app/chat/results/result-cap.ts resultLimitTokens). */
export const RESULT_LIMIT_DEFAULT_WORDS = `${n(DEFAULT_RESULT_LIMIT_TOKENS)} tokens, or a tenth of a smaller model’s context`;

/** undefined: the server uses Berth's default; null: not read yet. */
function useResultLimit(server: string): number | undefined | null {
  const { loaded, value } = useLiveHostList(
    {
      method: 'servers.resultLimits',
      input: {},
      topic: 'servers.resultLimitChanged',
      fromAnswer: (limits) => limits.find((s) => s.server === server)?.limitTokens,
      fromEvent: (setting) => (setting.server === server ? { value: setting.limitTokens } : undefined),
    },
    [server],
  );
  return loaded ? value : null;
}

export function ResultLimitFacts({ server }: { server: string }) {
  const limit = useResultLimit(server);
  const [editing, setEditing] = useState(false);
  return (
    <>
      <dt>Long results</dt>
      <dd className="result-limit" data-testid="result-limit">
        {editing && limit !== null ? (
          <ResultLimitForm server={server} limit={limit} onDone={() => setEditing(false)} />
        ) : (
          <>
            <p className="sampling-limit-line">
              {limit === undefined || limit === null ? (
                <>
                  The model gets at most <strong>{n(DEFAULT_RESULT_LIMIT_TOKENS)} tokens</strong> of one tool result, or
                  a tenth of a smaller model’s context <span className="muted">(Berth’s default)</span>
                </>
              ) : (
                <>
                  The model gets at most <strong>{n(limit)} tokens</strong> of one tool result
                </>
              )}
            </p>
            <p className="fact-note">
              A longer result reaches the model as its beginning and end, with a note; the model can read the rest in
              parts. You always see all of it.
            </p>
            <div className="fact-actions">
              <Button size="sm" disabled={limit === null} onClick={() => setEditing(true)}>
                Change result limit
              </Button>
            </div>
          </>
        )}
      </dd>
    </>
  );
}

function ResultLimitForm({ server, limit, onDone }: { server: string; limit: number | undefined; onDone: () => void }) {
  const transport = useBerth((s) => s.appsTransport);
  const [text, setText] = useState(limit === undefined ? '' : String(limit));
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const hintId = useId();

  async function save(tokens: number | null) {
    setFailure(undefined);
    if (
      tokens !== null &&
      (!Number.isInteger(tokens) || tokens < MIN_RESULT_LIMIT_TOKENS || tokens > MAX_RESULT_LIMIT_TOKENS)
    ) {
      setError(`Enter a whole number of tokens from ${n(MIN_RESULT_LIMIT_TOKENS)} to ${n(MAX_RESULT_LIMIT_TOKENS)}.`);
      return;
    }
    setError(undefined);
    setBusy(true);
    const result = await transport.call('servers.setResultLimit', { server, limitTokens: tokens });
    setBusy(false);
    if (result.ok) onDone();
    else setFailure(result.message);
  }

  return (
    <form
      className="sampling-limits-form"
      aria-label={`Result limit of ${server}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save(tokensOf(text));
      }}
    >
      <Field
        label="Tokens of one result the model gets"
        hint={`Applies to results that arrive from now on. Empty: ${RESULT_LIMIT_DEFAULT_WORDS}.`}
        error={error}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            inputMode="numeric"
            value={text}
            placeholder={n(DEFAULT_RESULT_LIMIT_TOKENS)}
            aria-describedby={describedBy ?? hintId}
            aria-invalid={invalid}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      {failure !== undefined ? <InlineAlert>{failure}</InlineAlert> : null}
      <LimitFormActions
        busy={busy}
        saveLabel="Save limit"
        onCancel={onDone}
        reset={limit !== undefined ? { label: 'Use Berth’s default', run: () => void save(null) } : undefined}
      />
    </form>
  );
}
