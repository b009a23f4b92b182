import clsx from 'clsx';
import { WarningIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';
import type { HostMessage } from '../../../shared/domain/host-message';
import { HostMessageText } from '../../i18n/host-message';

// The lists every launch review shows (a config import, a registry install, a bundle install).

/** The environment a server gets, each variable in full (the host masked secret values); `flagged` ones are marked. */
export function EnvList({
  env,
  flagged,
  secretKeys = [],
}: {
  env: Array<[string, string]>;
  flagged: ReadonlySet<string>;
  secretKeys?: readonly string[];
}) {
  const t = useT();
  if (env.length === 0) return <span className="muted">{t('launch-review.nothingAdded')}</span>;
  return (
    <ul className="import-env">
      {env.map(([key, value]) => (
        <li key={key} className={clsx('mono', flagged.has(key) && 'flagged')}>
          {key}={value}
          {secretKeys.includes(key) ? <span className="muted"> {t('launch-review.secret')}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** What to look at before going on, in words; nothing when there is none. */
export function WarningList({
  label,
  messages,
}: {
  label: string;
  /** The host's English, and its code when it has one (worded in the person's language). */
  messages: ReadonlyArray<{ message: string; hostMessage?: HostMessage | undefined }>;
}) {
  if (messages.length === 0) return null;
  return (
    <ul className="import-warnings" aria-label={label}>
      {messages.map((item, index) => (
        <li key={index}>
          <WarningIcon />
          <span>
            <HostMessageText message={item.hostMessage} fallback={item.message} />
          </span>
        </li>
      ))}
    </ul>
  );
}
