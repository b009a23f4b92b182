import clsx from 'clsx';
import { useT } from '../../i18n/use-t';

/**
 * The date a ready server's badge shows is the MCP protocol revision it speaks (revisions are
 * named by their date): the tooltip and screen readers say so, the badge itself stays short.
 */
export function ProtocolChip({ version, className }: { version: string; className: string }) {
  const t = useT();
  const meaning = t('servers.protocolChip', { version });
  return (
    <span className={clsx(className)} title={meaning}>
      <span className="sr-only">{meaning}</span>
      <span aria-hidden="true">{version}</span>
    </span>
  );
}
