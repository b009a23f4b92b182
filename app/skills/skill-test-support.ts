import { createHash } from 'node:crypto';

/** A SKILL.md and its manifest entry, built the way a server computes them. */
export function skillFixture(
  name: string,
  description: string,
  body = 'Use the tools well.\n',
  extraFiles: Record<string, string> = {},
) {
  const skillMd = `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
  const uri = `skill://${name}/SKILL.md`;
  const files: Record<string, string> = { [uri]: skillMd };
  for (const [path, text] of Object.entries(extraFiles)) files[`skill://${name}/${path}`] = text;
  const entry = {
    uri,
    frontmatter: { name, description },
    resources: Object.entries(files).map(([fileUri, text]) => ({
      uri: fileUri,
      digest: digestOf(text),
      size: Buffer.byteLength(text),
    })),
  };
  return { uri, skillMd, files, entry };
}

export function digestOf(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}
