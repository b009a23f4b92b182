import type { PolicyLines } from './sandbox-words';
import { useT } from '../../i18n/use-t';

/**
 * The policy in plain words: where it may change files, what it may not
 * read, where it may connect. The lists are the exact folders and domains,
 * not a summary, so the person can check them.
 */
export function PolicyFacts({ lines, rootsUnknown = false }: { lines: PolicyLines; rootsUnknown?: boolean }) {
  const t = useT();
  return (
    <dl className="sandbox-policy" aria-label={t('sandbox.policy.label')}>
      <dt>{t('sandbox.policy.write')}</dt>
      <dd data-testid="sandbox-policy-write">
        <ul className="sandbox-paths">
          {rootsUnknown ? <li className="muted">{t('sandbox.policy.rootsUnknown')}</li> : null}
          {lines.writeFolders.map((folder) => (
            <li key={folder} className="mono">
              {folder}
            </li>
          ))}
          <li className="muted">{t('sandbox.words.ownFolders')}</li>
          {lines.closedInside === undefined ? null : (
            <li className="muted" data-testid="sandbox-policy-closed-inside">
              {lines.closedInside}
            </li>
          )}
        </ul>
      </dd>
      <dt>{t('sandbox.policy.read')}</dt>
      <dd data-testid="sandbox-policy-read">{lines.read.replace(/^Can read /, '')}</dd>
      <dt>{t('sandbox.policy.network')}</dt>
      <dd data-testid="sandbox-policy-network">
        {lines.domains.length === 0 ? (
          t('sandbox.policy.noNetwork')
        ) : (
          <ul className="sandbox-paths">
            {lines.domains.map((domain) => (
              <li key={domain} className="mono">
                {domain}
              </li>
            ))}
          </ul>
        )}
      </dd>
    </dl>
  );
}
