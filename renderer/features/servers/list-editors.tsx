import clsx from 'clsx';
import { ALWAYS_SECRET_HEADERS, SECRET_MASK, dangerousEnvReason } from '../../../shared/domain';
import { Button, IconButton } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { CloseIcon, PlusIcon } from '../../ui/icons';
import { newRowId, type ArgRow, type EnvRow, type ShownErrors } from './server-form-model';
import { useRowFocus } from './use-row-focus';
import { useT, type Translate } from '../../i18n/use-t';

/** One input per argument: what you type is passed as-is, no shell quoting. */
export function ArgsEditor({
  rows,
  onChange,
  errors,
}: {
  rows: ArgRow[];
  onChange: (rows: ArgRow[]) => void;
  errors: ShownErrors;
}) {
  const t = useT();
  const update = (id: number, value: string) => onChange(rows.map((row) => (row.id === id ? { ...row, value } : row)));
  const focus = useRowFocus();
  const insertAfter = (index: number) => {
    const added = { id: newRowId(), value: '' };
    onChange([...rows.slice(0, index + 1), added, ...rows.slice(index + 1)]);
    focus.focusRow(added.id);
  };
  return (
    <fieldset className="list-editor" aria-describedby="args-hint">
      <legend className="field-label">{t('servers.args.legend')}</legend>
      {rows.length === 0 ? <p className="list-empty">{t('servers.args.none')}</p> : null}
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
              aria-label={t('servers.args.argument', { index: index + 1 })}
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
              label={t('servers.args.remove', { index: index + 1 })}
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
      {argErrors(rows, errors, t).map((message) => (
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
        {t('servers.args.add')}
      </Button>
      <p className="field-hint" id="args-hint">
        {t('servers.args.hint')}
      </p>
    </fieldset>
  );
}

function argErrors(rows: ArgRow[], errors: ShownErrors, t: Translate): string[] {
  const messages = rows.flatMap((row, index) => {
    const message = errors[`arg.${row.id}`];
    return message ? [t('servers.args.error', { index: index + 1, message })] : [];
  });
  return errors.args ? [errors.args, ...messages] : messages;
}

/** What differs between the env and the header editors, in the person's language. */
interface KeyValueKind {
  legend: string;
  /** Prefix of this editor's error keys in ShownErrors. */
  errorKey: 'env' | 'header';
  keyPlaceholder: string;
  empty: string;
  hint: string;
  /** The accessible names of row `index`'s controls, and the add button. */
  rowName: (index: number) => string;
  rowValue: (index: number) => string;
  rowLocked: (index: number) => string;
  rowSecret: (index: number) => string;
  remove: (index: number) => string;
  add: string;
  /** Names that are secret whatever the switch says (shown on and locked). */
  alwaysSecret?: (key: string) => boolean;
  /** Why a name deserves a second look (it makes the process run other code), if it does. */
  caution?: (key: string) => string | undefined;
}

function envKind(t: Translate): KeyValueKind {
  return {
    legend: t('servers.env.legend'),
    errorKey: 'env',
    keyPlaceholder: t('servers.env.keyPlaceholder'),
    empty: t('servers.env.empty'),
    hint: t('servers.env.hint'),
    rowName: (index) => t('servers.env.rowName', { index }),
    rowValue: (index) => t('servers.env.rowValue', { index }),
    rowLocked: (index) => t('servers.env.rowLocked', { index }),
    rowSecret: (index) => t('servers.env.rowSecret', { index }),
    remove: (index) => t('servers.env.remove', { index }),
    add: t('servers.env.add'),
    // The person's own setting, so only a note: worth a second look when it was copied from somewhere else.
    // The reason is shared/domain's English words (not yet coded); the sentence around it is the catalog's.
    caution: (key) => {
      const reason = dangerousEnvReason(key.trim());
      return reason === undefined ? undefined : t('servers.env.caution', { key: key.trim(), reason });
    },
  };
}

function headerKind(t: Translate): KeyValueKind {
  return {
    legend: t('servers.headers.legend'),
    errorKey: 'header',
    keyPlaceholder: t('servers.headers.keyPlaceholder'),
    empty: t('servers.headers.empty'),
    hint: t('servers.headers.hint'),
    rowName: (index) => t('servers.headers.rowName', { index }),
    rowValue: (index) => t('servers.headers.rowValue', { index }),
    rowLocked: (index) => t('servers.headers.rowLocked', { index }),
    rowSecret: (index) => t('servers.headers.rowSecret', { index }),
    remove: (index) => t('servers.headers.remove', { index }),
    add: t('servers.headers.add'),
    alwaysSecret: (key) => ALWAYS_SECRET_HEADERS.has(key.trim().toLowerCase()),
  };
}

/** Environment variables of a local server. */
export function EnvEditor(props: { rows: EnvRow[]; onChange: (rows: EnvRow[]) => void; errors: ShownErrors }) {
  const t = useT();
  return <KeyValueEditor {...props} kind={envKind(t)} />;
}

/** Static headers of a remote server. */
export function HeadersEditor(props: { rows: EnvRow[]; onChange: (rows: EnvRow[]) => void; errors: ShownErrors }) {
  const t = useT();
  return <KeyValueEditor {...props} kind={headerKind(t)} />;
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
  errors: ShownErrors;
  kind: KeyValueKind;
}) {
  const update = (id: number, patch: Partial<EnvRow>) =>
    onChange(rows.map((row) => (row.id === id ? { ...row, ...patch } : row)));
  const t = useT();
  const focus = useRowFocus();
  return (
    <fieldset className="list-editor">
      <legend className="field-label">{kind.legend}</legend>
      {rows.length === 0 ? <p className="list-empty">{kind.empty}</p> : null}
      {rows.length > 0 ? (
        <div className="env-head" aria-hidden="true">
          <span>{t('servers.keyValue.name')}</span>
          <span>{t('servers.keyValue.value')}</span>
          <span>{t('servers.keyValue.secret')}</span>
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
                  aria-label={kind.rowName(index + 1)}
                  aria-invalid={Boolean(keyError)}
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(event) => update(row.id, { key: event.target.value })}
                />
                <input
                  className={clsx('input mono', valueError && 'input-invalid')}
                  type={secret ? 'password' : 'text'}
                  value={row.value}
                  placeholder={t(secret ? 'servers.keyValue.secretValue' : 'servers.keyValue.valuePlaceholder')}
                  aria-label={kind.rowValue(index + 1)}
                  aria-invalid={Boolean(valueError)}
                  title={masked ? t('servers.keyValue.maskedTitle') : undefined}
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
                  label={locked ? kind.rowLocked(index + 1) : kind.rowSecret(index + 1)}
                  onCheckedChange={(value) => update(row.id, { secret: value })}
                />
                <IconButton
                  label={kind.remove(index + 1)}
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
        {kind.add}
      </Button>
      <p className="field-hint">{kind.hint}</p>
    </fieldset>
  );
}
