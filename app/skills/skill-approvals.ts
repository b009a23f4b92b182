import { join } from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';
import { errorMessage } from '../../shared/error-message';

/** One approval: the person allowed this skill of this server, as its manifest was then. */
const ApprovalSchema = z.object({
  server: z.string(),
  uri: z.string(),
  /** manifestDigest() of the entry the person saw; another digest means another skill. */
  manifest: z.string(),
  /** Other servers whose tools or folders this skill may direct the model to (asked once, for this manifest). */
  crossServers: z.array(z.string()).default([]),
  approvedAt: z.number(),
});
export type SkillApproval = z.infer<typeof ApprovalSchema>;

const FileSchema = z.object({ version: z.literal(1), approvals: z.array(ApprovalSchema) });

export interface SkillApprovalsOptions {
  /** Where skill-approvals.json lives (the host's state folder); none: kept in memory only. */
  stateDir?: string;
  warn(text: string): void;
  now?: () => number;
}

/**
 * The person's "yes" to each skill, bound to its manifest: keyed by the
 * pair (server label, SKILL.md URI) as the spec requires, never by name,
 * and valid only while the server's entry still has the digest it had
 * when approved. A changed skill therefore asks again.
 */
export class SkillApprovals {
  private readonly byKey = new Map<string, SkillApproval>();
  private readonly filePath: string | undefined;
  private readonly now: () => number;
  private saving: Promise<void> = Promise.resolve();
  private loaded: Promise<void>;

  constructor(private readonly options: SkillApprovalsOptions) {
    this.filePath = options.stateDir === undefined ? undefined : join(options.stateDir, 'skill-approvals.json');
    this.now = options.now ?? Date.now;
    this.loaded = this.load();
  }

  /** The stored approvals are read (awaited before any lookup that matters). */
  ready(): Promise<void> {
    return this.loaded;
  }

  /** The approval that still covers this manifest, if any. */
  covering(server: string, uri: string, manifest: string): SkillApproval | undefined {
    const approval = this.byKey.get(key(server, uri));
    return approval?.manifest === manifest ? approval : undefined;
  }

  /** Whether an approval exists for an earlier manifest of this skill (the dialog says "changed since you allowed it"). */
  approvedBefore(server: string, uri: string, manifest: string): boolean {
    const approval = this.byKey.get(key(server, uri));
    return approval !== undefined && approval.manifest !== manifest;
  }

  approve(server: string, uri: string, manifest: string, crossServers: readonly string[] = []): SkillApproval {
    const approval: SkillApproval = {
      server,
      uri,
      manifest,
      crossServers: [...crossServers].sort(),
      approvedAt: this.now(),
    };
    this.byKey.set(key(server, uri), approval);
    this.save();
    return approval;
  }

  /**
   * The server left the config: its skills' approvals go with it, and so does every other skill's leave to
   * steer the model to it (a new server given that name later is asked about afresh).
   */
  forgetServer(server: string): void {
    let changed = false;
    for (const [k, approval] of [...this.byKey]) {
      if (approval.server === server) {
        this.byKey.delete(k);
        changed = true;
      } else if (approval.crossServers.includes(server)) {
        this.byKey.set(k, { ...approval, crossServers: approval.crossServers.filter((name) => name !== server) });
        changed = true;
      }
    }
    if (changed) this.save();
  }

  /** The server was renamed: its skills' approvals, and other skills' leave to steer the model to it, follow the new name. */
  renameServer(from: string, to: string): void {
    if (from === to) return;
    let changed = false;
    for (const [k, approval] of [...this.byKey]) {
      const crossServers = approval.crossServers.includes(from)
        ? [...new Set(approval.crossServers.map((name) => (name === from ? to : name)))].sort()
        : approval.crossServers;
      if (approval.server !== from && crossServers === approval.crossServers) continue;
      this.byKey.delete(k);
      const moved = { ...approval, server: approval.server === from ? to : approval.server, crossServers };
      this.byKey.set(key(moved.server, moved.uri), moved);
      changed = true;
    }
    if (changed) this.save();
  }

  /** Pending writes done. */
  flush(): Promise<void> {
    return this.saving;
  }

  private async load(): Promise<void> {
    if (this.filePath === undefined) return;
    const loaded = await loadStateFile(this.filePath, FileSchema, this.now);
    if (loaded.kind === 'unusable') this.options.warn(`skill approvals: ${loaded.message}; every skill asks again`);
    if (loaded.kind !== 'loaded') return;
    for (const approval of loaded.data.approvals) {
      if (!this.byKey.has(key(approval.server, approval.uri)))
        this.byKey.set(key(approval.server, approval.uri), approval);
    }
  }

  private save(): void {
    const filePath = this.filePath;
    if (filePath === undefined) return;
    this.saving = this.saving
      .then(() => this.loaded)
      .then(() =>
        atomicWriteFile(filePath, `${JSON.stringify({ version: 1, approvals: [...this.byKey.values()] }, null, 2)}\n`),
      )
      .catch((error: unknown) => this.options.warn(`skill approvals could not be saved: ${errorMessage(error)}`));
  }
}

function key(server: string, uri: string): string {
  return `${server}\u0000${uri}`;
}
