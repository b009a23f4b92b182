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
import { formatNumber } from '../../i18n/format';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

// The Overview's "Long results": how much of one of the server's tool results
// reaches the model. Kept in this (lazy) view with its own state rather than a
// store slice: only this section reads it, and the first screen stays as it is.

// Berth's default is said the way the host applies it (app/chat/results/result-cap.ts resultLimitTokens):
// a number of tokens, or a tenth of a smaller model's context (servers.result.defaultLine and .hint).

// The contract's method and topic (wire names, not words).
const RESULT_LIMITS_METHOD = 'servers.resultLimits';
const RESULT_LIMIT_TOPIC = 'servers.resultLimitChanged';

/** undefined: the server uses Berth's default; null: not read yet. */
function useResultLimit(server: string): number | undefined | null {
  const { loaded, value } = useLiveHostList(
    {
      method: RESULT_LIMITS_METHOD,
      input: {},
      topic: RESULT_LIMIT_TOPIC,
      fromAnswer: (limits) => limits.find((s) => s.server === server)?.limitTokens,
      fromEvent: (setting) => (setting.server === server ? { value: setting.limitTokens } : undefined),
    },
    [server],
  );
  return loaded ? value : null;
}

export function ResultLimitFacts({ server }: { server: string }) {
  const t = useT();
  const limit = useResultLimit(server);
  const [editing, setEditing] = useState(false);
  return (
    <>
      <dt>{t('servers.result.title')}</dt>
      <dd className="result-limit" data-testid="result-limit">
        {editing && limit !== null ? (
          <ResultLimitForm server={server} limit={limit} onDone={() => setEditing(false)} />
        ) : (
          <>
            <p className="sampling-limit-line">
              {limit === undefined || limit === null ? (
                <T
                  id="servers.result.defaultLine"
                  values={{ tokens: formatNumber(DEFAULT_RESULT_LIMIT_TOKENS) }}
                  components={{ strong: <strong />, muted: <span className="muted" /> }}
                />
              ) : (
                <T
                  id="servers.result.line"
                  values={{ tokens: formatNumber(limit) }}
                  components={{ strong: <strong /> }}
                />
              )}
            </p>
            <p className="fact-note">{t('servers.result.note')}</p>
            <div className="fact-actions">
              <Button size="sm" disabled={limit === null} onClick={() => setEditing(true)}>
                {t('servers.result.change')}
              </Button>
            </div>
          </>
        )}
      </dd>
    </>
  );
}

function ResultLimitForm({ server, limit, onDone }: { server: string; limit: number | undefined; onDone: () => void }) {
  const t = useT();
  const transport = useBerth((s) => s.appsTransport);
  const [text, setText] = useState(limit === undefined ? '' : String(limit));
  // Worded as it renders (a language switch re-words it, numbers in the new locale's format).
  const [outOfRange, setOutOfRange] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const hintId = useId();

  async function save(tokens: number | null) {
    setFailure(undefined);
    if (
      tokens !== null &&
      (!Number.isInteger(tokens) || tokens < MIN_RESULT_LIMIT_TOKENS || tokens > MAX_RESULT_LIMIT_TOKENS)
    ) {
      setOutOfRange(true);
      return;
    }
    setOutOfRange(false);
    setBusy(true);
    const result = await transport.call('servers.setResultLimit', { server, limitTokens: tokens });
    setBusy(false);
    if (result.ok) onDone();
    else setFailure(result);
  }

  return (
    <form
      className="sampling-limits-form"
      aria-label={t('servers.result.formLabel', { server })}
      onSubmit={(event) => {
        event.preventDefault();
        void save(tokensOf(text));
      }}
    >
      <Field
        label={t('servers.result.field')}
        hint={t('servers.result.hint', { tokens: formatNumber(DEFAULT_RESULT_LIMIT_TOKENS) })}
        error={
          outOfRange
            ? t('servers.result.error', {
                min: formatNumber(MIN_RESULT_LIMIT_TOKENS),
                max: formatNumber(MAX_RESULT_LIMIT_TOKENS),
              })
            : undefined
        }
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            inputMode="numeric"
            value={text}
            placeholder={formatNumber(DEFAULT_RESULT_LIMIT_TOKENS)}
            aria-describedby={describedBy ?? hintId}
            aria-invalid={invalid}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      {failure !== undefined ? <InlineAlert>{failureText(failure)}</InlineAlert> : null}
      <LimitFormActions
        busy={busy}
        saveLabel={t('servers.result.save')}
        onCancel={onDone}
        reset={limit !== undefined ? { label: t('servers.result.useDefault'), run: () => void save(null) } : undefined}
      />
    </form>
  );
}
