import clsx from 'clsx';
import { ALWAYS_SECRET_HEADERS, SECRET_MASK, dangerousEnvReason } from '../../../shared/domain';
import { Button, IconButton } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { CloseIcon, PlusIcon } from '../../ui/icons';
import { newRowId, type ArgRow, type EnvRow, type FormErrors } from './server-form-model';
import { useRowFocus } from './use-row-focus';

/** One input per argument: what you type is passed as-is, no shell quoting. */
export function ArgsEditor({
  rows,
  onChange,
  errors,
}: {
  rows: ArgRow[];
  onChange: (rows: ArgRow[]) => void;
  errors: FormErrors;
}) {
  const update = (id: number, value: string) => onChange(rows.map((row) => (row.id === id ? { ...row, value } : row)));
  const focus = useRowFocus();
  const insertAfter = (index: number) => {
    const added = { id: newRowId(), value: '' };
    onChange([...rows.slice(0, index + 1), added, ...rows.slice(index + 1)]);
    focus.focusRow(added.id);
  };
  return (
    <fieldset className="list-editor" aria-describedby="args-hint">
      <legend className="field-label">Arguments</legend>
      {rows.length === 0 ? <p className="list-empty">No arguments.</p> : null}
      <ol className="list-rows">
        {rows.map((row, index) => (
          <li key={row.id} className="list-row">
            <span className="list-index" aria-hidden="true">
              {index + 1}
            </span>
            <input
              ref={focus.inputRef(row.id)}
              className={clsx('input mono', errors[`arg.${row.id}`] && 'input-invalid')}
              value={row.value}
              aria-label={`Argument ${index + 1}`}
              aria-invalid={Boolean(errors[`arg.${row.id}`])}
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => update(row.id, event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  // Enter adds the next argument instead of submitting half a command line.
                  event.preventDefault();
                  insertAfter(index);
                }
              }}
            />
            <IconButton
              label={`Remove argument ${index + 1}`}
              icon={<CloseIcon />}
              onClick={() => {
                focus.afterRemove(
                  rows.map((r) => r.id),
                  row.id,
                );
                onChange(rows.filter((r) => r.id !== row.id));
              }}
            />
          </li>
        ))}
      </ol>
      {argErrors(rows, errors).map((message) => (
        <p key={message} className="field-error" role="alert">
          {message}
        </p>
      ))}
      <Button
        ref={focus.addButton}
        size="sm"
        variant="ghost"
        icon={<PlusIcon />}
        onClick={() => insertAfter(rows.length - 1)}
      >
        Add argument
      </Button>
      <p className="field-hint" id="args-hint">
        Each box is one argument, passed to the program exactly as typed: no quotes or escaping needed, spaces stay
        inside the argument. Press Enter to add the next one.
      </p>
    </fieldset>
  );
}

function argErrors(rows: ArgRow[], errors: FormErrors): string[] {
  const messages = rows.flatMap((row, index) => {
    const message = errors[`arg.${row.id}`];
    return message ? [`Argument ${index + 1}: ${message}`] : [];
  });
  return errors.args ? [errors.args, ...messages] : messages;
}

/** What differs between the env and the header editors. */
interface KeyValueKind {
  legend: string;
  /** "variable", "header": used in labels and the add button. */
  noun: string;
  /** Prefix of this editor's error keys in FormErrors. */
  errorKey: 'env' | 'header';
  keyPlaceholder: string;
  empty: string;
  hint: string;
  /** Names that are secret whatever the switch says (shown on and locked). */
  alwaysSecret?: (key: string) => boolean;
  /** Why a name deserves a second look (it makes the process run other code), if it does. */
  caution?: (key: string) => string | undefined;
}

const ENV_KIND: KeyValueKind = {
  legend: 'Environment variables',
  noun: 'variable',
  errorKey: 'env',
  keyPlaceholder: 'API_KEY',
  empty: 'None. The server inherits Berth’s environment (including PATH).',
  hint: 'Mark API keys and tokens as secret: they are kept in Berth’s secret store (the OS keychain where there is one), not in config.json, masked here and redacted from logs and traces. Leave a masked value as it is to keep the stored secret.',
  // The person's own setting, so only a note: worth a second look when it was copied from somewhere else.
  caution: (key) => {
    const reason = dangerousEnvReason(key.trim());
    return reason === undefined
      ? undefined
      : `${key.trim()} ${reason}. Fine if you set it yourself; check it if you copied it from elsewhere.`;
  },
};

const HEADER_KIND: KeyValueKind = {
  legend: 'Headers',
  noun: 'header',
  errorKey: 'header',
  keyPlaceholder: 'Authorization',
  empty: 'None. Add one if the server wants an API key, e.g. Authorization: Bearer …',
  hint: 'Sent with every request. Authorization, Cookie and API-key headers are always secret: masked here, redacted from logs and traces, left out of exports.',
  alwaysSecret: (key) => ALWAYS_SECRET_HEADERS.has(key.trim().toLowerCase()),
};

/** Environment variables of a local server. */
export function EnvEditor(props: { rows: EnvRow[]; onChange: (rows: EnvRow[]) => void; errors: FormErrors }) {
  return <KeyValueEditor {...props} kind={ENV_KIND} />;
}

/** Static headers of a remote server. */
export function HeadersEditor(props: { rows: EnvRow[]; onChange: (rows: EnvRow[]) => void; errors: FormErrors }) {
  return <KeyValueEditor {...props} kind={HEADER_KIND} />;
}

/** Key/value rows with a per-row secret toggle; secrets are masked and never sent back in clear. */
function KeyValueEditor({
  rows,
  onChange,
  errors,
  kind,
}: {
  rows: EnvRow[];
  onChange: (rows: EnvRow[]) => void;
  errors: FormErrors;
  kind: KeyValueKind;
}) {
  const update = (id: number, patch: Partial<EnvRow>) =>
    onChange(rows.map((row) => (row.id === id ? { ...row, ...patch } : row)));
  const Noun = kind.noun.charAt(0).toUpperCase() + kind.noun.slice(1);
  const focus = useRowFocus();
  return (
    <fieldset className="list-editor">
      <legend className="field-label">{kind.legend}</legend>
      {rows.length === 0 ? <p className="list-empty">{kind.empty}</p> : null}
      {rows.length > 0 ? (
        <div className="env-head" aria-hidden="true">
          <span>Name</span>
          <span>Value</span>
          <span>Secret</span>
          <span />
        </div>
      ) : null}
      <ul className="list-rows">
        {rows.map((row, index) => {
          const keyError = errors[`${kind.errorKey}.${row.id}.key`];
          const valueError = errors[`${kind.errorKey}.${row.id}.value`];
          const locked = kind.alwaysSecret?.(row.key) === true;
          const secret = row.secret || locked;
          const masked = secret && row.value === SECRET_MASK;
          return (
            <li key={row.id} className="env-row-wrap">
              <div className="env-row">
                <input
                  ref={focus.inputRef(row.id)}
                  className={clsx('input mono', keyError && 'input-invalid')}
                  value={row.key}
                  placeholder={kind.keyPlaceholder}
                  aria-label={`${Noun} ${index + 1} name`}
                  aria-invalid={Boolean(keyError)}
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(event) => update(row.id, { key: event.target.value })}
                />
                <input
                  className={clsx('input mono', valueError && 'input-invalid')}
                  type={secret ? 'password' : 'text'}
                  value={row.value}
                  placeholder={secret ? 'secret value' : 'value'}
                  aria-label={`${Noun} ${index + 1} value`}
                  aria-invalid={Boolean(valueError)}
                  title={masked ? 'Stored secret, unchanged. Type to replace it.' : undefined}
                  spellCheck={false}
                  autoComplete="off"
                  // Selecting the mask on focus means typing replaces the secret rather than appending to dots.
                  onFocus={(event) => {
                    if (masked) event.target.select();
                  }}
                  onChange={(event) => update(row.id, { value: event.target.value })}
                />
                <Switch
                  checked={secret}
                  disabled={locked}
                  label={
                    locked
                      ? `${Noun} ${index + 1} always holds a credential, so it is always secret`
                      : `${Noun} ${index + 1} is a secret`
                  }
                  onCheckedChange={(value) => update(row.id, { secret: value })}
                />
                <IconButton
                  label={`Remove ${kind.noun} ${index + 1}`}
                  icon={<CloseIcon />}
                  onClick={() => {
                    focus.afterRemove(
                      rows.map((r) => r.id),
                      row.id,
                    );
                    onChange(rows.filter((r) => r.id !== row.id));
                  }}
                />
              </div>
              {keyError || valueError ? (
                <p className="field-error" role="alert">
                  {keyError ?? valueError}
                </p>
              ) : kind.caution?.(row.key) !== undefined ? (
                <p className="field-caution">{kind.caution(row.key)}</p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <Button
        ref={focus.addButton}
        size="sm"
        variant="ghost"
        icon={<PlusIcon />}
        onClick={() => {
          const added = { id: newRowId(), key: '', value: '', secret: false };
          onChange([...rows, added]);
          focus.focusRow(added.id);
        }}
      >
        Add {kind.noun}
      </Button>
      <p className="field-hint">{kind.hint}</p>
    </fieldset>
  );
}
