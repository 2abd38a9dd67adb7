// File system events for the memory folders: one non-recursive fs.watch per folder, kept in step
// with the tree, so it behaves the same on every platform and is armed as soon as it returns.
import { type Dirent, type FSWatcher, readdirSync, watch } from "node:fs";
import { join } from "node:path";

export interface DirectoryWatchOptions {
  workspaceDir: string;
  /** Top-level names that matter in the workspace folder itself (MEMORY.md, memory, bank, …). */
  rootNames: ReadonlySet<string>;
  /** Workspace-relative folders watched with everything below them. */
  trees: readonly string[];
  /** Absolute folders watched on their own (the transcripts folder). */
  flat: readonly string[];
  onChange: (path: string) => void;
  /** A watcher failed (e.g. out of inotify watches); the caller falls back to polling. */
  onFailure: (error: Error) => void;
}

export class DirectoryWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private refreshQueued = false;
  private closed = false;

  constructor(private readonly options: DirectoryWatchOptions) {
    this.refresh();
  }

  /** Watches every folder that exists now and stops watching those that are gone. */
  refresh(): void {
    if (this.closed) return;
    const { workspaceDir, rootNames } = this.options;
    const wanted = new Map<string, (name: string) => boolean>();
    wanted.set(workspaceDir, (name) => rootNames.has(name.split(/[\\/]/)[0] ?? ""));
    for (const tree of this.options.trees) {
      for (const dir of foldersBelow(join(workspaceDir, tree))) wanted.set(dir, () => true);
    }
    for (const dir of this.options.flat) wanted.set(dir, () => true);
    for (const [dir, watcher] of this.watchers) {
      if (wanted.has(dir)) continue;
      watcher.close();
      this.watchers.delete(dir);
    }
    for (const [dir, relevant] of wanted) {
      if (!this.watchers.has(dir)) this.add(dir, relevant);
    }
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private add(dir: string, relevant: (name: string) => boolean): void {
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true }, (event, name) => {
        const file = name?.toString() ?? "";
        // Hidden names are temp files of atomic writes and the index's own state.
        if (file === "" || file.startsWith(".") || !relevant(file)) return;
        if (event === "rename") this.queueRefresh();
        this.options.onChange(join(dir, file));
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A folder removed since it was listed is simply not watched.
      if (code === "ENOENT" || code === "ENOTDIR") return;
      this.options.onFailure(error as Error);
      return;
    }
    watcher.on("error", () => {
      // Linux reports a watched folder's removal this way; its parent saw the change.
      watcher.close();
      this.watchers.delete(dir);
      this.queueRefresh();
    });
    this.watchers.set(dir, watcher);
  }

  /** Folders appear and vanish in bursts; the tree is walked once per burst. */
  private queueRefresh(): void {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    setImmediate(() => {
      this.refreshQueued = false;
      this.refresh();
    });
  }
}

/** `root` and every non-hidden folder below it (links not followed); none when it does not exist. */
function foldersBelow(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // not a folder (or gone): nothing to watch
    }
    found.push(dir);
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith(".")) visit(join(dir, entry.name));
    }
  };
  visit(root);
  return found;
}
