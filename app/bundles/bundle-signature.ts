import type { BundleSignature } from '../../shared/contract/bundles';
import { bundleError } from '../../shared/domain/bundle-errors';
import { errorMessage } from '../../shared/error-message';
import { BundleRefused } from './bundle-refused';

export interface CheckedSignature {
  signature: BundleSignature;
  /** The zip itself: the file without the signature block MCPB appends. */
  archive: Buffer;
}

/**
 * The bundle's signature, checked with @anthropic-ai/mcpb (PKCS#7 over the
 * archive, certificate chain against the system's trust store). An unsigned
 * bundle is allowed and shown as unsigned. A bundle that carries a signature
 * which does not verify is refused: `verifyMcpbFile` then answers "unsigned"
 * (content changed after signing, or a certificate this system does not
 * trust), and passing that off as merely unsigned would hide tampering.
 */
export async function checkSignature(path: string, bytes: Buffer): Promise<CheckedSignature> {
  // Loaded on first use (see parseManifest).
  const { extractSignatureBlock, verifyMcpbFile } = await import('@anthropic-ai/mcpb/node');
  const { originalContent, pkcs7Signature } = extractSignatureBlock(bytes);
  if (pkcs7Signature === undefined) return { signature: { status: 'unsigned' }, archive: bytes };
  let info: Awaited<ReturnType<typeof verifyMcpbFile>>;
  try {
    info = await verifyMcpbFile(path);
  } catch (error) {
    throw new BundleRefused(bundleError('bundle-errors.signature-unreadable', { detail: errorMessage(error) }));
  }
  if (info.status === 'unsigned') {
    throw new BundleRefused(bundleError('bundle-errors.signature-invalid', {}));
  }
  const signature: BundleSignature = { status: info.status };
  if (info.publisher !== undefined) signature.publisher = info.publisher;
  if (info.issuer !== undefined) signature.issuer = info.issuer;
  if (info.valid_from !== undefined) signature.validFrom = info.valid_from;
  if (info.valid_to !== undefined) signature.validTo = info.valid_to;
  if (info.fingerprint !== undefined) signature.fingerprint = info.fingerprint;
  return { signature, archive: originalContent };
}
