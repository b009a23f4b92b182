import type { BundleInspection } from '../../../shared/contract/bundles';
import { Chip } from '../../ui/controls';
import { serverTypeLabel } from './bundle-model';
import { formatBytes } from '../../i18n/format';
import { useT } from '../../i18n/use-t';

function Declared({
  title,
  entries,
  generated,
}: {
  title: string;
  entries: BundleInspection['manifest']['tools'];
  generated: boolean;
}) {
  const t = useT();
  if (entries.length === 0 && !generated) return null;
  return (
    <div className="bundle-declared">
      <h4>{title}</h4>
      <ul aria-label={title}>
        {entries.map((entry) => (
          <li key={entry.name}>
            <span className="mono">{entry.name}</span>
            {entry.description !== undefined ? <span className="muted"> — {entry.description}</span> : null}
          </li>
        ))}
      </ul>
      {generated ? <p className="muted">{t('bundles.facts.generated')}</p> : null}
    </div>
  );
}

/** Name, version, author, signature, server type, and the tools and prompts the manifest declares. */
export function BundleFacts({ inspection }: { inspection: BundleInspection }) {
  const t = useT();
  const { manifest, signature } = inspection;
  const signed = signature.status !== 'unsigned';
  return (
    <section className="bundle-facts" aria-label={t('bundles.facts.label')}>
      <div className="bundle-title-row">
        <h3 className="bundle-name">{manifest.displayName ?? manifest.name}</h3>
        <Chip tone="accent">{manifest.version}</Chip>
        <Chip>{serverTypeLabel(manifest.serverType, t)}</Chip>
        {signed ? (
          <Chip
            tone="success"
            title={
              signature.fingerprint === undefined
                ? undefined
                : t('bundles.facts.fingerprint', { fingerprint: signature.fingerprint })
            }
          >
            {signature.publisher === undefined
              ? t('bundles.facts.signedTrusted')
              : t('bundles.facts.signedBy', { publisher: signature.publisher })}
          </Chip>
        ) : (
          <Chip tone="warning" title={t('bundles.facts.unsignedTitle')}>
            {t('bundles.facts.unsigned')}
          </Chip>
        )}
      </div>
      <p className="bundle-author">
        {t('bundles.facts.by', { author: manifest.author.name })}
        {manifest.author.url !== undefined ? <span className="muted"> · {manifest.author.url}</span> : null}
        {manifest.license !== undefined ? <span className="muted"> · {manifest.license}</span> : null}
        <span className="muted">
          {' '}
          · {t('bundles.facts.files', { count: inspection.files.count, size: formatBytes(inspection.files.bytes) })}
        </span>
      </p>
      <p>{manifest.description}</p>
      {inspection.installed.length > 0 ? (
        <p className="muted">
          {t('bundles.facts.installed', {
            list: inspection.installed
              .map((install) => t('bundles.facts.installedItem', { server: install.server, version: install.version }))
              .join(t('bundles.facts.listSeparator')),
          })}
        </p>
      ) : null}
      <div className="bundle-declared-row">
        <Declared title={t('bundles.facts.tools')} entries={manifest.tools} generated={manifest.toolsGenerated} />
        <Declared title={t('bundles.facts.prompts')} entries={manifest.prompts} generated={manifest.promptsGenerated} />
      </div>
    </section>
  );
}
