// Whether a process still exists, by the signal 0 that only checks (kill(2)): the tests that stop servers,
// workers and build processes judge "stopped" by this rather than by a refused connection, since a freed
// port may already be another test file's.

/** True while `pid` names a process: one of another user's (EPERM) counts; gone (ESRCH) or no valid pid does not. */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
