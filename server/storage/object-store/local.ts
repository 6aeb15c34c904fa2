// The local store: today's directories, unchanged (docs/decisions/0050-object-storage.md). A key is a path
// below $DATA_DIR/uploads or $DATA_DIR/private (keys.ts); a file is written under a hidden temp name in
// its final directory, flushed, and renamed into place, and the directory is flushed after the rename, so
// a row committed next never names a file a power cut took back (docs/decisions/0018-full-disk.md).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../env.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../data-dir.ts';
import { fsyncDirectory, makeDurableDirectory } from '../disk.ts';
import { fileRangeStream } from '../file-range-stream.ts';
import { chunksOf, createDigester } from './digest.ts';
import { areaDirectory, localPathOf, splitKey, STORE_AREAS, type StoreArea } from './keys.ts';
import { ObjectNotFoundError, type ByteRange, type LocalObjectStore, type ObjectDigest, type ObjectInfo } from './types.ts';

/** Public images keep ordinary readable modes (a web server running as another user serves them); gated files are the server's own. */
const FILE_MODE: Record<StoreArea, number> = { media: 0o644, private: PRIVATE_FILE_MODE };
const DIR_MODE: Record<StoreArea, number | undefined> = { media: undefined, private: PRIVATE_DIR_MODE };

export function createLocalObjectStore(config: Pick<Config, 'uploadsDir' | 'privateFilesDir'>): LocalObjectStore {
  const prepare = (key: string) => {
    const { area } = splitKey(key);
    const target = localPathOf(config, key);
    makeDurableDirectory(path.dirname(target), DIR_MODE[area]);
    return { area, target, temp: path.join(path.dirname(target), `.tmp-${randomBytes(8).toString('hex')}-${path.basename(target)}`) };
  };

  const renameIntoPlace = (temp: string, target: string) => {
    fs.renameSync(temp, target);
    fsyncDirectory(path.dirname(target));
  };

  return {
    kind: 'local',

    async putFile(key, tempPath, size) {
      let prepared: ReturnType<typeof prepare> | undefined;
      try {
        prepared = prepare(key);
        const stat = await fs.promises.stat(tempPath);
        if (stat.size !== size) throw new Error(`the temp file holds ${stat.size} bytes, ${size} were received`);
        try {
          renameIntoPlace(tempPath, prepared.target);
        } catch (error) {
          // DATA_DIR's folders on two file systems: copy next to the target, flush, then rename as usual.
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
          await fs.promises.copyFile(tempPath, prepared.temp);
          const handle = await fs.promises.open(prepared.temp, 'r+');
          await handle.datasync().finally(() => handle.close());
          renameIntoPlace(prepared.temp, prepared.target);
        }
      } catch (error) {
        if (prepared) await fs.promises.rm(prepared.temp, { force: true });
        throw error;
      } finally {
        await fs.promises.rm(tempPath, { force: true });
      }
    },

    async putStream(key, source: Readable | Buffer): Promise<ObjectDigest> {
      const { area, target, temp } = prepare(key);
      const digester = createDigester();
      const handle = await fs.promises.open(temp, 'wx', FILE_MODE[area]);
      let closed = false;
      try {
        for await (const chunk of chunksOf(source)) {
          digester.update(chunk);
          let offset = 0;
          while (offset < chunk.length) offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
        }
        await handle.datasync();
        closed = true;
        await handle.close();
        renameIntoPlace(temp, target);
        return digester.digest();
      } catch (error) {
        if (!closed) await handle.close().catch(() => {});
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    },

    async head(key): Promise<ObjectInfo | null> {
      try {
        const stat = await fs.promises.stat(localPathOf(config, key));
        return stat.isFile() ? { size: stat.size, lastModified: stat.mtime } : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async read(key, range?: ByteRange) {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(localPathOf(config, key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFoundError(key);
        throw error;
      }
      try {
        const { size } = await handle.stat();
        const { start, end } = range ?? { start: 0, end: size - 1 };
        return fileRangeStream(handle, start, end);
      } catch (error) {
        await handle.close().catch(() => {});
        throw error;
      }
    },

    async delete(key) {
      await fs.promises.rm(localPathOf(config, key), { force: true });
    },

    async *list(prefix) {
      for (const area of STORE_AREAS) {
        if (!`${area}/`.startsWith(prefix) && !prefix.startsWith(`${area}/`)) continue;
        for await (const { key, size } of walk(areaDirectory(config, area), area)) if (key.startsWith(prefix)) yield { key, size };
      }
    },
  };
}

/** Every regular file below `dir` as a key of `area`, hidden entries (temp files, `.tmp/`) left out. */
async function* walk(dir: string, keyPrefix: string): AsyncIterable<{ key: string; size: number }> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    const key = `${keyPrefix}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(full, key);
    else if (entry.isFile()) yield { key, size: (await fs.promises.stat(full)).size };
  }
}
