import { z } from 'zod';
import { HostMessageSchema } from './host-message';

/** One folder the person picked as a root. */
export const RootSchema = z.object({
  id: z.string().min(1),
  /** The real folder (every symbolic link resolved): absolute, normalized (no trailing separator, no `.`/`..`). What servers see. */
  path: z.string().min(1),
  /** The path the person picked, when it differs from `path` (a symbolic link on the way): shown with it, and watched (see `retarget`). */
  linkPath: z.string().min(1).optional(),
  /** What servers and the person see; defaults to the folder's name. */
  name: z.string().min(1).max(200),
  /** Epoch ms. */
  addedAt: z.number(),
});
export type Root = z.infer<typeof RootSchema>;

/** A root as the host last found it on disk. */
export const RootViewSchema = RootSchema.extend({
  /** The folder is gone, is no longer a folder, or cannot be read: it is shown flagged and never given to a server. */
  missing: z.boolean(),
  /** Why it is missing, in words for the person. */
  problem: z.string().optional(),
  /** `problem` as a code and its facts (root-errors.folder-unusable / link-moved), worded in the person's language. */
  problemMessage: HostMessageSchema.optional(),
  /** The picked path now leads to this folder instead of `path`: held back (missing) until the person confirms the new folder. */
  retarget: z.string().optional(),
});
export type RootView = z.infer<typeof RootViewSchema>;

/** Which roots one server may see: every root (the default) or the listed root ids. */
export const RootExposureSchema = z.union([z.literal('all'), z.array(z.string())]);
export type RootExposure = z.infer<typeof RootExposureSchema>;

/** The person's answers about which roots a server may see. */
export const RootConsentSchema = z.object({
  allowed: z.array(z.string()),
  denied: z.array(z.string()),
  /** The server identity (digest of command, arguments, folder or address) these answers were given to; absent in older files: asked again. */
  identity: z.string().optional(),
});
export type RootConsent = z.infer<typeof RootConsentSchema>;

/** `<stateDir>/roots.json`. */
export const RootsFileSchema = z.object({
  version: z.literal(1),
  roots: z.array(RootSchema),
  /** Servers absent here see every root. */
  exposure: z.record(z.string(), RootExposureSchema),
  consent: z.record(z.string(), RootConsentSchema),
});
export type RootsFile = z.infer<typeof RootsFileSchema>;

/** What the person is asked before a server first sees some roots (a pending-request payload). */
export const RootConsentPayloadSchema = z.object({
  roots: z.array(RootSchema.pick({ id: true, name: true, path: true })).min(1),
});
export type RootConsentPayload = z.infer<typeof RootConsentPayloadSchema>;

/** The person's answer: the ids of the asked roots the server may see; every other asked root is denied. */
export const RootConsentResponseSchema = z.object({ allow: z.array(z.string()) });
export type RootConsentResponse = z.infer<typeof RootConsentResponseSchema>;

/** A change to the roots: the full list after it, and the servers whose visible set changed. */
export const RootsChangeSchema = z.object({
  roots: z.array(RootViewSchema),
  /** Send `notifications/roots/list_changed` to exactly these. */
  servers: z.array(z.string()),
});
export type RootsChange = z.infer<typeof RootsChangeSchema>;
