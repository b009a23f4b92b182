import { z } from 'zod';
import { method } from './define';

const ServerSchema = z.string().min(1, 'Name a server').max(200);
const UriSchema = z.string().min(1, 'Give a resource URI').max(4_096, 'A resource URI is at most 4096 characters');
const CursorSchema = z.string().max(10_000).optional();

/** Blobs above this are refused rather than pushed through the bridge and held in the renderer. */
export const MAX_RESOURCE_BLOB_BYTES = 20 * 1024 * 1024;

/** One concrete resource a server lists. */
export const ResourceInfoSchema = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
});
export type ResourceInfo = z.infer<typeof ResourceInfoSchema>;

/** A URI template (RFC 6570) the person fills in to name a resource. */
export const ResourceTemplateInfoSchema = z.object({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export type ResourceTemplateInfo = z.infer<typeof ResourceTemplateInfoSchema>;

/** One part of what resources/read returned: text as is, binary as base64 with its decoded size. */
export const ResourcePartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
  z.object({
    kind: z.literal('blob'),
    uri: z.string(),
    mimeType: z.string().optional(),
    blob: z.string(),
    size: z.number().int().min(0),
  }),
]);
export type ResourcePart = z.infer<typeof ResourcePartSchema>;

const ServerUriSchema = z.object({ server: ServerSchema, uri: UriSchema }).strict();

export const resourceMethods = {
  'resources.list': method({
    summary: "One page of a ready server's resources (pass nextCursor back for the next page).",
    input: z.object({ server: ServerSchema, cursor: CursorSchema }).strict(),
    output: z.object({ resources: z.array(ResourceInfoSchema), nextCursor: z.string().optional() }),
  }),
  'resources.templates': method({
    summary: "One page of a ready server's resource templates.",
    input: z.object({ server: ServerSchema, cursor: CursorSchema }).strict(),
    output: z.object({ resourceTemplates: z.array(ResourceTemplateInfoSchema), nextCursor: z.string().optional() }),
  }),
  'resources.read': method({
    summary: `Read one resource (binary parts above ${MAX_RESOURCE_BLOB_BYTES / (1024 * 1024)} MB are refused).`,
    input: ServerUriSchema,
    output: z.object({ contents: z.array(ResourcePartSchema) }),
  }),
  'resources.subscribe': method({
    summary:
      'Be told when a resource changes (resources/subscribe or subscriptions/listen, by protocol era); kept across restarts of the server.',
    input: ServerUriSchema,
    output: z.object({ subscribed: z.array(z.string()) }),
  }),
  'resources.unsubscribe': method({
    summary: 'Stop being told when a resource changes.',
    input: ServerUriSchema,
    output: z.object({ subscribed: z.array(z.string()) }),
  }),
  'resources.subscriptions': method({
    summary: 'The resource URIs subscribed to on a server (whether it is running or not).',
    input: z.object({ server: ServerSchema }).strict(),
    output: z.object({ subscribed: z.array(z.string()) }),
  }),
};

export const resourceTopics = {
  /** A subscribed resource changed: read it again to see how. */
  'resources.updated': z.object({ server: z.string(), uri: z.string() }),
  /** A server's resource (or template) list changed. */
  'resources.listChanged': z.object({ server: z.string() }),
};
