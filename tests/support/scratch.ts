/**
 * Where tests put their throwaway data directories: a memory file system when there is one (a
 * seeded store copies there in a fraction of the time it takes on disk), else the OS temp
 * directory. Shared by the server suite's databases and the browser stories' servers.
 */
import { accessSync, constants } from "node:fs";
import { tmpdir } from "node:os";

export const SCRATCH_DIR = (() => {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
})();
