import clsx from 'clsx';
import { hasHiddenCharacters, showableName } from '../../../shared/domain/showable-name';
import { useT } from '../../i18n/use-t';

/**
 * A server-chosen name in a decision (tool, title, skill, server, domain):
 * isolated from the words around it (`<bdi>`), with every bidi control,
 * control or invisible character shown as an escape (showableName). A name
 * that held one is marked, and says so on hover.
 */
export function SafeName({ name, className }: { name: string; className?: string }) {
  const t = useT();
  const hidden = hasHiddenCharacters(name);
  return (
    <bdi
      className={clsx('safe-name', hidden && 'safe-name-escaped', className)}
      title={hidden ? t('shell.safeName.escaped') : undefined}
    >
      {showableName(name)}
    </bdi>
  );
}
