import { z } from 'zod';
import { RootConsentSchema, RootExposureSchema, RootViewSchema } from '../domain/roots';
import { method } from './define';

/** Everything the roots picker shows: the roots, which server sees which, and what the person answered. */
export const RootsViewSchema = z.object({
  roots: z.array(RootViewSchema),
  /** Servers absent here see every root (the default). */
  exposure: z.record(z.string(), RootExposureSchema),
  /** Per server: the roots the person allowed or denied when asked. Roots in neither list are asked about first. */
  consent: z.record(z.string(), RootConsentSchema),
});
export type RootsView = z.infer<typeof RootsViewSchema>;

/** One folder of the server-side folder browser (browser mode has no native dialog). */
export const FolderEntrySchema = z.object({
  name: z.string(),
  path: z.string(),
  /** False when Berth may not list it (permission denied); it cannot be picked either. */
  readable: z.boolean(),
});
export type FolderEntry = z.infer<typeof FolderEntrySchema>;

export const FolderListingSchema = z.object({
  /** The absolute, normalized folder listed. */
  path: z.string(),
  /** Absent at the file-system root. */
  parent: z.string().optional(),
  /** The person's home folder, for a "Home" shortcut. */
  home: z.string(),
  /** Sub-folders only (no files), sorted by name; hidden ones (dot-folders) last. */
  entries: z.array(FolderEntrySchema),
  /** More sub-folders than shown. */
  truncated: z.boolean(),
});
export type FolderListing = z.infer<typeof FolderListingSchema>;

const PathSchema = z.string().trim().min(1, 'Enter a folder path').max(4_096, 'That path is too long');
const RootIdSchema = z.string().min(1).max(200);
const ServerSchema = z.string().min(1).max(200);

export const rootsMethods = {
  'roots.list': method({
    summary: 'Every root, its state on disk, and which server may see which.',
    input: z.object({}).strict(),
    output: RootsViewSchema,
  }),
  'roots.add': method({
    summary: 'Add an existing, readable folder as a root (name defaults to the folder name).',
    input: z
      .object({
        path: PathSchema,
        name: z.string().max(200).optional(),
        /** The person confirmed sharing a folder as broad as `/` or their home folder (without it, such a folder fails with path `confirmBroad`). */
        confirmBroad: z.boolean().optional(),
      })
      .strict(),
    output: RootViewSchema,
  }),
  'roots.confirmTarget': method({
    summary:
      'Share the folder a root’s link leads to now (after it changed): servers see the root again, at its new real path.',
    input: z.object({ id: RootIdSchema, confirmBroad: z.boolean().optional() }).strict(),
    output: RootViewSchema,
  }),
  'roots.rename': method({
    summary: 'Rename a root (servers that see it are told their roots changed).',
    input: z.object({ id: RootIdSchema, name: z.string().max(200) }).strict(),
    output: RootViewSchema,
  }),
  'roots.remove': method({
    summary: 'Remove a root: no server sees it any more (each is told). Returns it so the person can undo.',
    input: z.object({ id: RootIdSchema }).strict(),
    output: z.object({ removed: RootViewSchema }),
  }),
  'roots.restore': method({
    summary:
      'Undo a removal made since Berth started: the root comes back with its id, and which servers see it and what was answered about it.',
    input: z.object({ id: RootIdSchema }).strict(),
    output: RootViewSchema,
  }),
  'roots.setExposure': method({
    summary: "Which roots one server may see: 'all' (the default) or the listed root ids.",
    input: z.object({ server: ServerSchema, exposure: RootExposureSchema }).strict(),
    output: RootsViewSchema,
  }),
  'roots.resetConsent': method({
    summary: 'Forget what the person answered for a server (all roots, or the listed ones): it is asked again.',
    input: z.object({ server: ServerSchema, rootIds: z.array(RootIdSchema).max(1_000).optional() }).strict(),
    output: RootsViewSchema,
  }),
  'roots.browse': method({
    summary: 'List the sub-folders of a folder (home when no path is given), for picking a root in browser mode.',
    input: z.object({ path: PathSchema.optional() }).strict(),
    output: FolderListingSchema,
  }),
  'roots.pickFolder': method({
    summary: "Open the system's folder dialog (Electron only; browser mode uses roots.browse). null when cancelled.",
    input: z.object({}).strict(),
    output: z.object({ path: z.string().nullable() }),
  }),
};

export const rootsTopics = {
  /** A root was added, renamed, removed, went missing or came back, or a server's exposure or answers changed. */
  'roots.changed': RootsViewSchema,
};
