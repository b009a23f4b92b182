import type { BundleInspection } from '../../../shared/contract/bundles';
import { Chip } from '../../ui/controls';
import { formatBytes, serverTypeLabel } from './bundle-model';

function Declared({
  title,
  entries,
  generated,
}: {
  title: string;
  entries: BundleInspection['manifest']['tools'];
  generated: boolean;
}) {
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
      {generated ? <p className="muted">The server may offer more once it runs.</p> : null}
    </div>
  );
}

/** Name, version, author, signature, server type, and the tools and prompts the manifest declares. */
export function BundleFacts({ inspection }: { inspection: BundleInspection }) {
  const { manifest, signature } = inspection;
  const signed = signature.status !== 'unsigned';
  return (
    <section className="bundle-facts" aria-label="About this bundle">
      <div className="bundle-title-row">
        <h3 className="bundle-name">{manifest.displayName ?? manifest.name}</h3>
        <Chip tone="accent">{manifest.version}</Chip>
        <Chip>{serverTypeLabel(manifest.serverType)}</Chip>
        {signed ? (
          <Chip
            tone="success"
            title={signature.fingerprint === undefined ? undefined : `Certificate fingerprint ${signature.fingerprint}`}
          >
            Signed by {signature.publisher ?? 'a trusted publisher'}
          </Chip>
        ) : (
          <Chip
            tone="warning"
            title="Nobody vouches for who made it: install it only if you trust where the file came from."
          >
            Unsigned
          </Chip>
        )}
      </div>
      <p className="bundle-author">
        by {manifest.author.name}
        {manifest.author.url !== undefined ? <span className="muted"> · {manifest.author.url}</span> : null}
        {manifest.license !== undefined ? <span className="muted"> · {manifest.license}</span> : null}
        <span className="muted">
          {' '}
          · {inspection.files.count} files, {formatBytes(inspection.files.bytes)}
        </span>
      </p>
      <p>{manifest.description}</p>
      {inspection.installed.length > 0 ? (
        <p className="muted">
          Installed already:{' '}
          {inspection.installed.map((install) => `“${install.server}” (${install.version})`).join(', ')}. Use the same
          server name to update it.
        </p>
      ) : null}
      <div className="bundle-declared-row">
        <Declared title="Tools" entries={manifest.tools} generated={manifest.toolsGenerated} />
        <Declared title="Prompts" entries={manifest.prompts} generated={manifest.promptsGenerated} />
      </div>
    </section>
  );
}
