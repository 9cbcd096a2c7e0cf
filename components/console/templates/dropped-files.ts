import { readJsonContent, type IncomingFile } from "@/lib/console/templates/sort-files";

// The files a drop or a picker hands the upload form, folders opened (a dropped folder comes as
// one directory entry; a folder picker's files carry their path), JSON files read for sorting.

type Located = { file: File; path: string };

/** Beyond this, a JSON file is not read for sorting (the upload refuses it anyway). */
const maxReadJsonBytes = 64 * 1024 * 1024;

/**
 * Every file of a drop, the files inside dropped folders included, with their paths. The
 * entries are taken at once: a DataTransfer's items are gone once the drop event is over.
 */
export async function filesOfDrop(transfer: DataTransfer): Promise<Located[]> {
  const taken = Array.from(transfer.items ?? [])
    .filter((item) => item.kind === "file")
    .map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  if (taken.length === 0) return Array.from(transfer.files, (file) => ({ file, path: file.name }));
  const located: Located[] = [];
  for (const { entry, file } of taken) {
    if (entry?.isDirectory) located.push(...(await filesOfDirectory(entry as FileSystemDirectoryEntry)));
    else if (file) located.push({ file, path: file.name });
  }
  return located;
}

/** A picker's files; a folder picker's keep their path inside the folder. */
export function filesOfPicker(list: FileList | null): Located[] {
  return Array.from(list ?? [], (file) => ({ file, path: file.webkitRelativePath || file.name }));
}

async function filesOfDirectory(directory: FileSystemDirectoryEntry): Promise<Located[]> {
  const reader = directory.createReader();
  const entries: FileSystemEntry[] = [];
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    entries.push(...batch);
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const located: Located[] = [];
  for (const entry of entries) {
    if (entry.isDirectory) located.push(...(await filesOfDirectory(entry as FileSystemDirectoryEntry)));
    else {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      located.push({ file, path: entry.fullPath.replace(/^\//, "") });
    }
  }
  return located;
}

/** Reads each JSON file's content, so it can be told apart from the template's other JSON files. */
export async function readIncoming(located: Located[]): Promise<IncomingFile[]> {
  return Promise.all(
    located.map(async ({ file, path }) => {
      const isJson = /\.json$/i.test(file.name) || file.type === "application/json";
      if (!isJson || file.size > maxReadJsonBytes) return { file, path };
      try {
        return { file, path, json: readJsonContent(await file.text()) };
      } catch {
        return { file, path, json: { kind: "unreadable" as const } };
      }
    }),
  );
}
